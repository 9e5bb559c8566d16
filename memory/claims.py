"""Facts keyed by meaning: a proposed fact read as claims (subject, relation, value).

A fact is what it claims, not the words it uses: "Supplier contracts often deviate from the
playbook on liability cap (high severity)" and "Liability caps are often off-playbook; high
severity" are one claim, `(liability_cap, deviates, high)`, and share one key; "... in section
8" and "... in section 9" are two. The words around a claim (a party's name among them) are not
part of its key, so three suppliers' names around one sentence no longer make one fact confirmed
three times; and a fact that names a party, a person, a company or carries a label the scrubber
or the screen left is refused outright (`refusal`).

The subject is a topic of the caller's vocabulary when one is given (`Vocabulary.topics`: the
clause types and their names, passed down by the graph: memory never imports the contract
domain); without one, the content words the grammar does not explain, stemmed. Relations form a
closed set (`RELATIONS`); values are normalised (numbers as digits, "two times" as "2x", "thirty
days" as "30 days", a section as its top-level number).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from memory.retrieval import STOPWORDS

RELATIONS = ("located_in", "deviates", "missing", "red_flag", "standard", "value")
_UNITS = {"x": "x", "times": "x", "time": "x", "%": "%", "percent": "%", "per cent": "%", "day": "days",
          "days": "days", "week": "weeks", "weeks": "weeks", "month": "months", "months": "months",
          "year": "years", "years": "years", "hour": "hours", "hours": "hours"}
_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_NUMBER_WORDS.update({"thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90,
                      "hundred": 100, "twice": 2, "double": 2, "half": 0.5})
_QUANTITY = re.compile(r"(\d+(?:\.\d+)?)\s*(x|times?|%|percent|per cent|days?|weeks?|months?|years?|hours?)(?![a-z])")
_MONEY = re.compile(r"\b(usd|eur|gbp|chf|jpy|cad|aud)\s*(\d+(?:\.\d+)?)")
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}
_SECTION = re.compile(r"\b(?:in|under|at|within|to)?\s*(?:section|clause|article|§|sec\.)\s*(\d{1,3})(?:\.\d+)*\b")
_SEVERITY = re.compile(r"\b(high|medium|low)\b(?:[\s-]+(?:severity|risk))?")
_NEGATION = re.compile(r"\b(?:not|no|never|without|cannot|rarely|seldom)\b")
_COMPARISON = re.compile(r"\b(below|under|less than|fewer than|lower than|above|over|more than|greater than|exceeding|"
                         r"at least|at most|no less than|no more than)\s+(\d+(?:\.\d+)?\s*(?:x|%|days|weeks|months|years|hours))")
_SIGNS = (  # relation -> what says it, tried in this order
    ("missing", re.compile(r"\b(?:missing|absent|omitted|lacks?|lacking|left out)\b")),
    ("deviates", re.compile(r"\b(?:deviat\w*|off[- ]playbook|non[- ]?standard|depart\w* from|out of line)\b")),
    ("red_flag", re.compile(r"\b(?:red flags?|warning signs?|a concern|risky)\b")),
    ("standard", re.compile(r"\b(?:standard|acceptable|compliant|in line with|consistent with|customary|meets)\b")),
)
_LOCATION_VERBS = re.compile(r"\b(?:place[sd]?|put|puts|located?|locates|found|finds?|appears?|sits?|is|are|usually"
                             r"|typically|contains?|cap|caps|set|sets)\b")
# the grammar of claims: words that carry no subject ("Supplier contracts often ... in section 8")
_GRAMMAR = frozenset("""
    supplier suppliers buyer buyers customer customers vendor vendors seller sellers purchaser contract contracts
    agreement agreements clause clauses provision provisions term terms section sections article articles usually
    typically often generally normally commonly frequently always mostly sometimes tend tends place places placed
    put puts located locate locates found find finds appear appears sit sits contain contains include includes
    deviate deviates deviating deviation deviations playbook playbooks severity high medium low standard
    acceptable compliant customary red flag flags warning sign signs concern risk risky value values missing
    absent omitted lack lacks lacking left out meets meet line consistent set sets
    below under less fewer lower above over more greater exceeding least most than times percent days weeks
    months years hours x one two three the a an of in on at to for from with within by and or is are be been
    being has have it its their there this that these those which non off depart departs departing buyer's
""".split()) | STOPWORDS
# what a fact naming a party, a person or a company looks like
_FORMS = (r"Inc|INC|LLC|L\.L\.C\.|Ltd|LTD|Limited|LIMITED|PLC|plc|GmbH|GMBH|AG|Corp|CORP|Corporation|CORPORATION"
          r"|Co\.|CO\.|LLP|LP|S\.A\.|SA|B\.V\.|BV|N\.V\.|NV|Pte|PTE|Pty|PTY|S\.p\.A\.|SpA|S\.r\.l\.|Srl|SARL|SAS|KK|Oy"
          r"|AB|A/S|AS|Bhd|BHD|Group|GROUP|Holdings|HOLDINGS")
_COMPANY_FORM = re.compile(rf"(?:{_FORMS})(?![\w/])", re.IGNORECASE)  # a word of a name that is a company form
# a company named with its form: capitalised words, then the form ("Acme Widgets Ltd", "ACME GMBH")
_COMPANY = re.compile(rf"\b[A-Z][\w&.'’-]*(?:\s+(?:&\s+)?[A-Z0-9][\w&.'’-]*){{0,5}},?\s+(?:{_FORMS})(?![\w/])")
_LABEL = re.compile(r"<[A-Z_]{3,}>")


@dataclass(frozen=True, order=True)
class Claim:
    subject: str
    relation: str
    value: str = ""
    label: str = field(default="", compare=False)  # how the subject reads (its key may be stems)

    def text(self) -> str:
        """The claim in canonical words (what a fact of one claim stores and serves)."""
        topic = self.label or self.subject.replace("_", " ")
        negated = self.relation.startswith("not_")
        relation = self.relation.removeprefix("not_")
        if relation == "located_in":
            return f"The {topic} clause is {'not ' if negated else ''}usually in section {self.value}."
        if relation == "deviates":
            tail = f" ({self.value} severity)" if self.value else ""
            return f"Supplier contracts {'rarely' if negated else 'often'} deviate from the playbook on {topic}{tail}."
        if relation == "missing":
            return f"The {topic} clause is {'rarely' if negated else 'often'} missing."
        if relation == "red_flag":
            return f"For {topic}, {self.value} is {'not ' if negated else ''}a red flag."
        if relation == "standard":
            return f"{topic.capitalize()}{' at ' + self.value if self.value else ''} is {'not ' if negated else ''}usually standard."
        if relation == "states":  # a caller with no vocabulary: the statement as first written
            return self.label
        return f"{topic.capitalize()} is {'not ' if negated else ''}usually {self.value}."


@dataclass(frozen=True)
class Vocabulary:
    """What the caller knows of its domain, as plain values: `topics` maps each subject id to the
    names it goes by ({"liability_cap": ["liability cap", "limitation of liability"]});
    `positions` gives each subject's standard position as numbers ({"liability_cap": {"unit":
    "x", "standard_min": 2.0}}), which a claim may not contradict."""

    topics: Mapping[str, Sequence[str]] = field(default_factory=dict)
    positions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


NO_VOCABULARY = Vocabulary()


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    import snowballstemmer

    return snowballstemmer.stemmer("english")


def _normalised(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'")
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    text = re.sub(r"\b(" + "|".join(sorted((re.escape(w) for w in _NUMBER_WORDS), key=len, reverse=True)) + r")\b",
                  lambda m: _number(_NUMBER_WORDS[m.group(1)]), text)
    text = re.sub(r"\b(\d+(?:\.\d+)?) (?:times|x)\b", r"\1x", text)
    text = re.sub(r"\b(\d+(?:\.\d+)?)\s*(thousand|million|billion|k|m|bn)\b",
                  lambda m: _number(float(m.group(1)) * _SCALE[m.group(2)]), text)
    text = re.sub(r"(?:\$|us\$)\s?(?=\d)", "usd ", text).replace("€", "eur ").replace("£", "gbp ")
    text = re.sub(r"\b2 (?=(?:the |contract |annual )*(?:value|fees|contract|annual))", "2x ", text)  # "twice the value"
    return text


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _quantity(text: str) -> str:
    m = _QUANTITY.search(text)
    if not m:
        money = _MONEY.search(text)
        return f"{money.group(1)} {_number(float(money.group(2)))}" if money else ""
    unit = _UNITS.get(m.group(2), m.group(2))
    number = _number(float(m.group(1)))
    return f"{number}x" if unit == "x" else f"{number} {unit}" if unit != "%" else f"{number}%"


def _topic(text: str, vocabulary: Vocabulary) -> str | None:
    """The one topic of the vocabulary the text names ("" when it names none, None when several)."""
    spans: list[tuple[int, int, str]] = []
    for topic, names in vocabulary.topics.items():
        for name in (topic.replace("_", " "), *names):
            pattern = r"\b" + r"\s+".join(re.escape(w) for w in name.lower().split()) + r"(?:s|es)?\b"
            spans.extend((m.start(), m.end(), topic) for m in re.finditer(pattern, text))
    # a name inside a longer one is part of it ("warranty" in "warranty disclaimer")
    found = {t for s, e, t in spans if not any(s2 <= s and e <= e2 and (e2 - s2) > (e - s) for s2, e2, _ in spans)}
    return next(iter(found)) if len(found) == 1 else ("" if not found else None)


def _subject_words(text: str) -> tuple[str, str]:
    """(key, label) of a subject the vocabulary does not know: its content words stemmed and
    sorted (so "liability caps" and "the cap on liability" meet), and as first written."""
    words = [w for w in re.findall(r"[a-z][a-z'-]*", text) if w not in _GRAMMAR and len(w) > 1]
    return " ".join(sorted(set(_stemmer().stemWords(words)))), " ".join(dict.fromkeys(words))


def _claim(part: str, subject: str, label: str) -> Claim | None:
    section = _SECTION.search(part)
    negated = bool(_NEGATION.search(part))
    relation, value = "", ""
    if section and _LOCATION_VERBS.search(part):
        relation, value = "located_in", section.group(1)
    else:
        for name, sign in _SIGNS:
            if sign.search(part):
                relation = name
                break
        if relation == "deviates":
            severity = _SEVERITY.search(part)
            value = severity.group(1) if severity else ""
        elif relation == "red_flag":
            comparison = _COMPARISON.search(part)
            value = f"{comparison.group(1)} {comparison.group(2).replace(' ', '')}" if comparison else _quantity(part)
        elif relation == "standard":
            value = _quantity(part)
        elif relation == "" and (value := _quantity(part) or (section.group(1) if section else "")):
            relation = "value" if not section else "located_in"
    if not relation:
        return None
    return Claim(subject, f"not_{relation}" if negated else relation, value, label)


def read_claims(text: str, vocabulary: Vocabulary = NO_VOCABULARY) -> tuple[Claim, ...]:
    """The claims a fact makes, sorted; () when, with a vocabulary, it makes none the grammar can
    read (such a fact is not learned: an unreadable fact cannot be checked against the playbook).
    With no vocabulary, a statement the grammar cannot read is one claim ("states")."""
    normal = _normalised(text)
    if vocabulary.topics:
        subject, label = _topic(normal, vocabulary), ""
        if not subject:  # names no topic, or several at once
            return ()
    else:
        subject, label = _subject_words(re.sub(r"\d+(?:\.\d+)*", " ", normal))
        if not subject:
            return ()
    claims = []
    for part in re.split(r"\s*(?:;|--|—|–|\.(?=\s|$)|!|\?|,?\s+and\s+(?=a |an |the |below|above|under|over))\s*", normal):
        if part.strip() and (claim := _claim(part, subject, label)) is not None:
            claims.append(claim)
    if not claims and not vocabulary.topics:
        # a caller with no vocabulary (an agent of another domain): the statement is one claim, keyed
        # by its content words stemmed and sorted; it names no party (`refusal` ran before)
        statement = " ".join(text.split()).rstrip(".")
        return (Claim(subject, "states", "", statement[:1].upper() + statement[1:] + "."),)
    return tuple(sorted(set(claims)))


def claims_key(claims: Iterable[Claim]) -> str:
    """A stable id for what a fact claims (what the confirmation log counts)."""
    canonical = "\n".join(f"{c.subject}|{c.relation}|{c.value}" for c in sorted(set(claims)))
    return "f" + hashlib.sha256(canonical.encode()).hexdigest()[:24]


def claims_text(claims: Iterable[Claim]) -> str:
    return " ".join(c.text() for c in sorted(set(claims)))


def refusal(text: str, parties: Iterable[str] = ()) -> str | None:
    """Why a fact may not be learned, or None: it names one of `parties` (a distinctive word of a
    party's name), a company (a company form: "Ltd", "GmbH", "Inc" ...), or carries a label left by
    the scrubber or the screen (`<PERSON>`, `<INSTRUCTION>`)."""
    if _LABEL.search(text):
        return f"it carries {_LABEL.search(text).group()}"
    lowered = unicodedata.normalize("NFKC", text).lower()
    for party in parties:
        words = [w for w in re.findall(r"[^\W\d_]{3,}", unicodedata.normalize("NFKC", party).lower())
                 if w not in _GRAMMAR and not _COMPANY_FORM.fullmatch(w)]
        named = [w for w in words if re.search(rf"(?<![^\W_]){re.escape(w)}(?![^\W_])", lowered)]
        if named:
            return f"it names a party ({named[0]!r})"
    company = _COMPANY.search(unicodedata.normalize("NFKC", text))
    if company:
        return f"it names a company ({company.group()!r})"
    return None


ContradictionCheck = Callable[[Claim], "str | None"]


def contradiction(claim: Claim, vocabulary: Vocabulary) -> str | None:
    """Why `claim` contradicts the standard position of its topic, or None: a value called
    standard, or not a red flag, that the position would not accept ("liability caps at 0.1x are
    usually standard" against "standard_min: 2")."""
    position = vocabulary.positions.get(claim.subject)
    relation = claim.relation
    if not position or relation not in ("standard", "not_red_flag", "not_deviates") or not claim.value:
        return None
    m = re.match(r"(?:[a-z ]+ )?(\d+(?:\.\d+)?)\s*(x|%|days|weeks|months|years|hours)$", claim.value)
    if not m:
        return None
    number, unit = float(m.group(1)), m.group(2)
    if position.get("unit") and position["unit"] != unit:
        return None
    low, high = position.get("standard_min"), position.get("standard_max")
    if low is not None and number < float(low):
        return f"{claim.value} is below the playbook's standard minimum of {_number(float(low))}{'' if unit in ('x', '%') else ' '}{unit}"
    if high is not None and number > float(high):
        return f"{claim.value} is above the playbook's standard maximum of {_number(float(high))}{'' if unit in ('x', '%') else ' '}{unit}"
    return None


def party_token(name: str) -> str:
    """A keyed token for a counterparty (its name without company form, case or punctuation):
    the confirmation gate counts distinct counterparties without memory keeping their names."""
    words = [w for w in re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", name).casefold())
             if not _COMPANY_FORM.fullmatch(w) and w not in ("the", "and")]
    return "cp-" + hashlib.sha256(" ".join(words).encode()).hexdigest()[:16] if words else ""


def template_token(headings: Iterable[str]) -> str:
    """A token for a contract's template: its section headings in order, folded (copies of one
    template with other parties, dates or reference numbers share it)."""
    folded = [" ".join(re.findall(r"[^\W\d_]+", unicodedata.normalize("NFKC", h).casefold())) for h in headings]
    return "tpl-" + hashlib.sha256("\n".join(folded).encode()).hexdigest()[:16]
