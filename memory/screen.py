"""The instruction screen: text that speaks to the model is cut out of what memory stores.

Memory keeps words the graph read in a contract (section headings, a counterparty's name, in
older records the opening lines), and a contract can be written to carry orders there. Retrieved
memory is served as data inside a delimited block (`memory.block`), but an order has no business
in memory at all: before anything is written, every clause that reads as one is replaced by
`INSTRUCTION_LABEL`, every link or image by `LINK_LABEL`, an encoded payload that decodes to
readable text by `ENCODED_LABEL`, and a proposed fact that carries any of them is not learned.
What is kept is folded (`memory.fold.fold_letters`): NFKC, no invisible or bidi control characters, look-alike
letters of a word written mostly in Latin letters turned into those letters.

How an order is recognised, whatever its language, script or spelling:
- the text is read as a reader sees it: NFKC, invisible and bidi characters dropped, lines
  joined and page furniture ("Page 3 of 12", a lone page number, a form feed) left out, so an
  order split across a page break reads whole; once as written, once through the UTS #39
  skeleton (Cyrillic "Аlwауѕ" is "always"), once through ROT13, and letter-spaced words
  ("i g n o r e") joined; base64, hex, URL- and HTML-escaped runs are decoded and read too;
- each clause (up to a sentence's end) is matched against a closed set of concepts written in
  some 25 languages (`memory.screen_lexicon`): dropping the rules, giving a verdict, keeping
  something out of the output, skipping a step, speaking to the reader (an AI, a reviewer, "if
  you are ...", "your report"), talk about the prompt, claims that the review already happened
  ("pre-cleared", "no deviations found"), and fake report lines (`liability_cap: standard`);
- an order is a combination of concepts in one clause ("ignore" + "instructions", "mark" +
  "standard", "skip" + "check", an AI addressed + anything it is told), or a speaker's role
  label or chat-template token ("SYSTEM:", "<|im_start|>"). In English, the contracts'
  language, a verdict, a "do not ..." or a skip counts only as an imperative, or when said to
  "you", to an AI or reader, or of the clause itself ("this clause should be treated as ..."):
  a party's obligation ("Supplier shall mark each Product", "Products that do not conform")
  is contract language, not an order.

docs/SECURITY.md ("The instruction screen") gives the figures on a hostile set written for it
(tests/security/data/hostile_orders.jsonl) and on the CUAD and sample contracts.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import codecs
import html
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote

from memory import lookalikes
from memory.fold import fold_letters
from memory.records import RunArtifacts
from memory.screen_lexicon import CONCEPTS

INSTRUCTION_LABEL = "<INSTRUCTION>"
LINK_LABEL = "<LINK>"
ENCODED_LABEL = "<ENCODED>"
LABELS = (INSTRUCTION_LABEL, LINK_LABEL, ENCODED_LABEL)

_INVISIBLE = {code: None for lo, hi in lookalikes.INVISIBLE for code in range(lo, hi + 1)}
# one for one (the views keep their offsets): the look-alikes memory.fold also folds
_SKELETON = {code: latin for code, latin in lookalikes.LATIN.items() if len(latin) == 1}
_MAX_DEPTH = 3  # payloads inside payloads: base64 of URL-encoding of ...
_MAX_CLAUSE = 600  # characters: a clause with no sentence end is cut at a line break past this

# ---------------------------------------------------------------- concepts

# Scripts written without spaces, or with combining vowel signs: their terms match anywhere.
_NO_SPACES = "\u0590-\u05ff\u0600-\u06ff\u0900-\u097f\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff"
_NO_BOUNDARY = re.compile(f"[{_NO_SPACES}]")
_TAIL = r"(?![^\W_])"


def _expanded(term: str) -> list[str]:
    """`term` with a leading group or character class spelled out ("(?:mark|rate)s?" -> "marks?",
    "rates?"; "[eé]valu" -> "evalu", "évalu"), so every term starts with a literal."""
    if term.startswith("(?:"):
        depth, close = 0, 0
        while close < len(term):
            depth += term[close] == "("
            depth -= term[close] == ")"
            if depth == 0:
                break
            close += 1
        inner, rest = term[3:close], term[close + 1:]
        optional = rest.startswith("?")
        rest = rest[1:] if optional else rest
        parts, depth, start = [], 0, 0
        for j, ch in enumerate(inner):
            depth += ch == "("
            depth -= ch == ")"
            if ch == "|" and depth == 0:
                parts.append(inner[start:j])
                start = j + 1
        parts.append(inner[start:])
        out = [x for part in parts for x in _expanded(part + rest)]
        return out + (_expanded(rest.removeprefix(r"\s+")) if optional else [])
    if term.startswith("[") and "]" in term:
        close = term.index("]")
        return [x for ch in term[1:close] for x in _expanded(ch + term[close + 1:])]
    return [term]


def _literal_head(term: str) -> str:
    """The literal letters `term` starts with, lower case: two where the second is certain."""
    head = ""
    for ch in term[:2]:
        if not ch.isalpha():
            break
        head += ch
    return head.lower() if len(head) == 2 and term[2:3] not in ("?", "*", "{") else head[:1].lower()


@dataclass(frozen=True)
class _Term:
    concept: str
    lang: str
    pattern: re.Pattern[str]


def _build() -> tuple[dict[str, list[_Term]], list[_Term], list[_Term]]:
    """(terms by the letters a word starts with, terms found inside a compound word, terms of
    scripts without spaces): the lexicon as the screen reads it, built once at import."""
    by_head: dict[str, list[_Term]] = {}
    inside: list[_Term] = []
    spaceless: dict[tuple[str, str], list[str]] = {}
    for concept, by_lang in CONCEPTS.items():
        for lang, terms in by_lang.items():
            for term in terms:
                pattern = term.replace(" ", r"\s+")
                tail = "" if term.endswith(("\\w*", "\\w+", " ", ":")) else _TAIL
                if _NO_BOUNDARY.search(term):
                    spaceless.setdefault((concept, lang), []).append(pattern)
                elif term.startswith("\\w*"):  # the end of a compound word ("Haftungsprüfung")
                    inside.append(_Term(concept, lang, re.compile(pattern[3:] + tail, re.IGNORECASE)))
                else:
                    for variant in _expanded(pattern):
                        compiled = re.compile(variant + tail, re.IGNORECASE)
                        by_head.setdefault(_literal_head(variant), []).append(_Term(concept, lang, compiled))
    spaced = [_Term(c, lang, re.compile("|".join(sorted(ts, key=len, reverse=True)), re.IGNORECASE))
              for (c, lang), ts in spaceless.items()]
    return by_head, inside, spaced


_BY_HEAD, _INSIDE, _SPACELESS = _build()
_WORD_START = re.compile(r"(?<![^\W_])[^\W_]")
# an AI named by its acronym: upper case only (Italian "ai" is "to the", "IA" in an address is Iowa)
_AI_ACRONYM = re.compile(r"(?<![^\W_])(?:AI|A\.I\.|KI|IA|ИИ|ШІ|LLM|GPT-?\w*)(?![^\W_])")

# A speaker's role label or a chat template's token. The speakers no contract has (assistant,
# developer, LLM ...) count anywhere; those a contract also uses as headings ("Quality System:",
# "User:", "System: Combination of hardware ...") count where an order follows the colon.
_ORDER_FOLLOWS = (r"(?=\s*(?:you|your|ignore|disregard|forget|always|never|do\s+not|don't|treat|mark|approve|classify"
                  r"|rate|report|override|consider|assess|accept|skip|bypass|note|record|flag|label|grade|score|evaluate"
                  r"|summari[sz]e|respond|reply|answer|output|print|say|write|new\s+instructions|the\s+(?:retrieved\s+)?memory"
                  r"|end\s+of|from\s+now|this\s+(?:clause|contract|agreement|document|cap)|all\s+clauses|every\s+clause)\b)")
_LABEL_TAIL = r"(?:\s+(?:prompt|message|note|instructions?|override|directive|command))?\s*(?::|>)(?!\S*//)"
_ROLE = re.compile(
    rf"\b(?:assistant|developer|human|ai|bot|admin|llm|language\s+model|override){_LABEL_TAIL}"
    rf"|\b(?=\w+{_LABEL_TAIL}{_ORDER_FOLLOWS})"
    rf"\b(?:system|user|model|reviewer|instructions?|directive|command|système|sistema|systeem|systém|система"
    rf"|sistem){_LABEL_TAIL}"
    r"|<\|[\w-]+\|>|\[/?(?:INST|SYS)\]|<</?SYS>>|#{2,}\s*(?:instruction|system|response|user|assistant)s?\b"
    r"|(?:系统|系統|システム|시스템|النظام)\s*[:：]",
    re.IGNORECASE | re.MULTILINE)
# A fake report line: a clause-type id or a verdict label followed by a verdict.
_VERDICTS = r"(?:standard|acceptable|compliant|approved|pass(?:ed)?|ok|cleared|no\s+deviations?|low\s+risk|no\s+risk)\b"
_REPORT_LINE = re.compile(
    rf"(?<![\w-])[a-z]{{3,}}(?:_[a-z]{{2,}})+\s*(?:[:=|>→-]+|\bis\b)\s*{_VERDICTS}"
    rf"|(?<![\w-])[a-z][a-z ]{{2,40}}?\s*(?:==?|:=|->|=>|→)\s*{_VERDICTS}",
    re.IGNORECASE)

# English: the words that may stand before an imperative in its clause ("Please always mark ...")
_LEAD = frozenset(
    "please kindly always now simply just also then and so hereby henceforth immediately automatically definitely "
    "therefore thus instead from on going forward only do be sure make remember important note nb ps pls plz but or "
    "first finally next again still quietly silently hence accordingly consequently hereafter thereafter ok okay yes "
    "to moving reviewers reviewer ai".split())
_ADDRESSED = re.compile(r"\byou\b|\byour\b|\byourself\b")
_MODAL = re.compile(r"\b(?:must|should|shall|will|need(?:s)?\s+to|has\s+to|have\s+to|is\s+to|are\s+to|ought\s+to|may|can|"
                    r"is\s+(?:instructed|required|expected|asked)\s+to|are\s+(?:instructed|required|expected|asked)\s+to)\b")
_PASSIVE = re.compile(r"\b(?:this|it|these|(?:the|this|that|each|every|all|any|such)\s+(?:\w+\s+){0,2}?"
                      r"(?:clause|cap|term|provision|section|limitation|liability|deviation|risk|issue|contract|agreement"
                      r"|document|finding|position|wording|language|item|schedule|exhibit|annex|matrix|table)s?)\s+"
                      r"(?:should|must|needs?\s+to|has\s+to|have\s+to|is\s+to|are\s+to|ought\s+to)\s+(?:\w+\s+)?be\s*$")
_SUBCLAUSE = re.compile(r"[,:;()\[\]\"“”«»—–]|\s-\s|\b(?:and|then|but|or|while|because)\b")
# a modal or auxiliary earlier in the clause: the verb is a party's obligation ("Seller shall survey,
# verify and record ..."), unless the modal's subject is "you", an AI or a reader
_EARLIER_MODAL = re.compile(r"\b(?:shall|will|may|must|should|can|could|would|might|agrees?\s+to|undertakes?\s+to"
                            r"|is\s+(?:required|entitled|permitted|obliged|obligated)\s+to|are\s+(?:required|entitled|permitted"
                            r"|obliged|obligated)\s+to)\b")
# "hold harmless" is an indemnity, not a verdict
_HELD_HARMLESS = re.compile(r"\b(?:hold|holds|held|holding|save|saves|saved|render|rendered|keep|kept)\s+$", re.IGNORECASE)
# a verdict said as a predicate, not an adjective before a noun or a rule ("compliant with the law")
_NOT_PREDICATE = re.compile(r"\s*(?:with|to|under|of|in|on|at|from)\b")


@dataclass(frozen=True)
class _Hit:
    concept: str
    lang: str
    start: int
    end: int


# ---------------------------------------------------------------- reading the text as a reader sees it

_PAGE_FURNITURE = re.compile(
    r"^[ \t]*(?:(?:page|p\.|seite|página|pagina|strona|страница|sayfa)[ \t]*\d{1,4}(?:[ \t]*(?:of|/|von|de|di|z|из)[ \t]*\d{1,4})?"
    r"|[-–—][ \t]*\d{1,4}[ \t]*[-–—]|\d{1,4}|\[?page[ \t]+break\]?|[-=_*~.]{3,})[ \t]*$|\f",
    re.IGNORECASE | re.MULTILINE)
_SPACED = re.compile(r"(?<![^\W_])(?:[^\W_][ .·*_-]){3,}[^\W_](?![^\W_])")


def _view(text: str) -> tuple[str, list[int]]:
    """`text` as a reader sees it, and for each character the offset in `text` it comes from:
    NFKC, invisible characters dropped, page furniture left out, every run of blanks one blank
    (a line break where the run holds one, two blanks where it held more), so that patterns
    read across line and page breaks. Linear: one pass over the characters."""
    skips = [m.span() for m in _PAGE_FURNITURE.finditer(text)]
    out: list[str] = []
    where: list[int] = []
    pending = ""  # the blank run being read: "", " ", "  " or "\n"
    pending_at = 0
    s = 0
    i = 0
    n = len(text)
    while i < n:
        if s < len(skips) and skips[s][0] <= i:
            if i < skips[s][1]:
                i = skips[s][1]
                continue
            s += 1
            continue
        ch = text[i]
        if ch.isspace():
            if ch in "\n\r\f\v\u2028\u2029":
                pending_at = i if not pending else pending_at
                pending = "\n"
            elif not pending:
                pending, pending_at = " ", i
            elif pending == " ":
                pending = "  "
            i += 1
            continue
        folded = unicodedata.normalize("NFKC", ch.translate(_INVISIBLE)) if not ch.isascii() else ch
        if folded:
            if pending:
                if out:
                    out.append(pending)
                    where.extend([pending_at] * len(pending))
                pending = ""
            out.append(folded)
            where.extend([i] * len(folded))
        i += 1
    where.append(n)
    return "".join(out), where


def _joined_letters(view: str, where: list[int]) -> tuple[str, list[int]] | None:
    """The view with letter-spaced words joined ("i g n o r e" -> "ignore"), or None when it
    has none."""
    if not _SPACED.search(view):
        return None
    out: list[str] = []
    at_map: list[int] = []
    at = 0
    for m in _SPACED.finditer(view):
        out.append(view[at:m.start()])
        at_map.extend(where[at:m.start()])
        for k in range(m.start(), m.end()):
            if view[k].isalnum():
                out.append(view[k])
                at_map.append(where[k])
        at = m.end()
    out.append(view[at:])
    at_map.extend(where[at:])
    return "".join(out), at_map


_SPACED_STEMS = ("ignor", "disregard", "forget", "overrid", "instruct", "prompt", "playbook", "standard", "acceptab",
                 "complian", "approv", "skip", "bypass", "flag", "report", "mark", "treat", "rule", "risk", "system")


def _spaced_spans(text: str) -> list[tuple[int, int]]:
    """Letter-spaced runs ("i g n o r e t h e p l a y b o o k") that spell two words of an
    order even with no space left between the words. A spaced heading such as "W I T N E S S E T H"
    spells none."""
    spans = []
    for m in _SPACED.finditer(text):
        joined = re.sub(r"[\W_]", "", m.group()).lower()
        if sum(stem in joined for stem in _SPACED_STEMS) >= 2:
            spans.append(m.span())
    return spans


def _views(text: str) -> Iterator[tuple[str, list[int], bool]]:
    """(view, offsets, every language?) for each way the text is read: as written, through the
    skeleton of look-alike letters, letter-spaced words joined, and ROT13 (English only)."""
    view, where = _view(text)
    yield view, where, True
    if not view.isascii():
        skeleton = view.translate(_SKELETON)
        if skeleton != view:
            yield skeleton, where, True
    joined = _joined_letters(view, where)
    if joined is not None:
        yield joined[0], joined[1], True
    if any("a" <= c.lower() <= "z" for c in view[:4096]) or not view.isascii():
        yield codecs.encode(view, "rot13"), where, False


# ---------------------------------------------------------------- clauses and orders

_CLAUSE_END = re.compile(r"[.!?。！？]+(?=\s|$|[\"”»)\]])|[。！？]"
                         # a line break before a numbered line, a bullet, or a capital after a line that ended
                         r"|\n(?=[ \t]*(?:\d|\(|[•*·▪‣-]\s))|(?<=[.:;!?)\]\"”»])\n(?=[ \t]*[^\W\d_])")


def _clauses(view: str) -> list[tuple[int, int]]:
    """(start, end) of each clause of the view: up to a sentence's end, or a line break where a new
    item or sentence starts (a line broken mid-sentence, or by a page, reads on); a long one cut
    at a line break (bounded, so one clause never spans a whole text)."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for m in _CLAUSE_END.finditer(view):
        _cut_long(view, start, m.end(), bounds)
        start = m.end()
    _cut_long(view, start, len(view), bounds)
    return bounds


def _cut_long(view: str, start: int, end: int, bounds: list[tuple[int, int]]) -> None:
    while end - start > _MAX_CLAUSE:
        cut = view.find("\n", start + _MAX_CLAUSE // 2, start + _MAX_CLAUSE)
        if cut < 0:
            cut = view.rfind(" ", start + _MAX_CLAUSE // 2, start + _MAX_CLAUSE)
        cut = cut + 1 if cut >= 0 else start + _MAX_CLAUSE
        bounds.append((start, cut))
        start = cut
    if view[start:end].strip():
        bounds.append((start, end))


def _hits(view: str, every_language: bool) -> list[_Hit]:
    """Every concept found in the view (English ones only when `every_language` is false)."""
    hits: list[_Hit] = []
    lowered = view.lower()
    if len(lowered) != len(view):  # a few capitals lower to two characters ("İ"): keep offsets
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in view)
    for m in _WORD_START.finditer(view):
        at = m.start()
        head = lowered[at:at + 2]
        for key in {head, head[:1]}:
            for term in _BY_HEAD.get(key, ()):
                if (every_language or term.lang == "en") and (found := term.pattern.match(view, at)):
                    hits.append(_Hit(term.concept, term.lang, at, found.end()))
    if every_language:
        for term in _INSIDE:
            hits.extend(_Hit(term.concept, term.lang, m.start(), m.end()) for m in term.pattern.finditer(view))
        if _NO_BOUNDARY.search(view):
            for term in _SPACELESS:
                hits.extend(_Hit(term.concept, term.lang, m.start(), m.end()) for m in term.pattern.finditer(view))
    # signs that belong to no language ("*"): an acronym, a role label, a report line
    hits.extend(_Hit("AI", "*", m.start(), m.end()) for m in _AI_ACRONYM.finditer(view))
    hits.extend(_Hit("ROLE", "*", m.start(), m.end()) for m in _ROLE.finditer(view))
    hits.extend(_Hit("REPORT", "*", m.start(), m.end()) for m in _REPORT_LINE.finditer(view))
    return sorted(hits, key=lambda h: h.start)


_ENGLISH = frozenset("the of and to in shall be by for with any or this that such is as on will which from under "
                     "its are not all other than have has may each upon within without".split())
# Function words of the other languages written in Latin letters (none of them an English word).
_FOREIGN = frozenset("""
    le la les des du et est une pour dans que qui pas ne vous votre ce cette sur avec au aux
    der die das und ist nicht mit für von zu dem des ein eine alle bitte sie du diese dieser kein keine
    el los las y es con para por una del al su sus este esta como
    il di che per non della sono questo questa gli
    os e é não com um uma da dos das seu sua
    de het een en niet van voor met op dat deze als je
    w z na nie się jest że jako oraz ten ta tej
    și în nu este pentru cu ca
    och att det som inte är för med ett den og ikke er til af på
    v se je že jako ne
    ve bir bu için ile olarak değil
    dan yang ini itu untuk dengan tidak jangan
    và là của không này
    az és nem hogy egy ez
    ja on ei että tämä se
""".split())


_QUOTE_MARK = re.compile(r"[\"“”«»()\[\]「」『』]")


def _foreign_around(view: str, clause: tuple[int, int], hit: _Hit) -> bool:
    """Whether the words around a hit (up to 80 characters each side, within its clause) are in
    another language than English: two of its function words or letters English does not write,
    or one and no English function word. Only then is another language's Latin-script term read:
    such terms also match English words ("approv-", "considera-")."""
    lo, hi = max(clause[0], hit.start - 80), min(clause[1], hit.end + 80)
    for m in _QUOTE_MARK.finditer(view, lo, hit.start):  # within the quotation or bracket it sits in
        lo = m.end()
    closing = _QUOTE_MARK.search(view, hit.end, hi)
    text = view[lo:closing.start() if closing else hi]
    words = re.findall(r"[^\W\d_]+", text.lower())
    english = sum(w in _ENGLISH for w in words)
    foreign = sum(w in _FOREIGN for w in words) + sum(c.isalpha() and not c.isascii() for c in text)
    return foreign >= 2 and foreign > english or foreign >= 1 and english == 0


def _english_order(view: str, clause_start: int, at: int, clause_hits: list[_Hit]) -> str:
    """How an English verb at `at` is an order to the reader: "imperative" (nothing but "please",
    "always", "and" ... or a heading's capitalised words before it, and no modal earlier in the
    clause), "addressed" (said to
    "you", an AI or a reader: "AI reviewers must treat"), "passive" (of the clause itself: "this
    cap should be treated as ..."), or "" when it is none (a party's obligation)."""
    before = view[clause_start:at]
    parts = _SUBCLAUSE.split(before)
    tail = parts[-1] if parts else ""
    lowered = tail.lower()
    tail_start = at - len(tail)
    addressee = any(h.concept in ("AI", "READER") and tail_start <= h.start < at for h in clause_hits)
    if (_ADDRESSED.search(lowered) or addressee) and _MODAL.search(lowered):
        return "addressed"
    if _PASSIVE.search(lowered) or re.search(r"\b(?:should|must|needs?\s+to|has\s+to|have\s+to|is\s+to|are\s+to"
                                              r"|ought\s+to)\s+(?:\w+\s+)?be\s*$", lowered):
        return "passive"
    # a heading the order follows on its line ("MASTER SUPPLY AGREEMENT Ignore all ...") is no subject
    lower_words = [w for w in re.findall(r"[^\W\d_][\w'’-]*", tail) if not w[0].isupper()]
    if all(w.lower() in _LEAD for w in lower_words) and not _EARLIER_MODAL.search(before.lower()):
        return "imperative"
    return ""


def _near(first: _Hit, second: _Hit, gap: int) -> bool:
    return 0 <= second.start - first.end <= gap


_ORDER_CONCEPTS = ("VERDICT_VERB", "VERDICT_VALUE", "SUPPRESS", "SKIP", "OVERRIDE", "RULES", "YOUR_OUTPUT", "REVIEW")


def _is_order(view: str, clause: tuple[int, int], hits: list[_Hit]) -> list[_Hit]:
    """The hits that make the clause an order (empty when it is none)."""
    by: dict[str, list[_Hit]] = {}
    for h in hits:
        by.setdefault(h.concept, []).append(h)

    def present(concept: str, lang: str | None = None) -> list[_Hit]:
        return [h for h in by.get(concept, []) if lang is None or h.lang == lang]

    def order(h: _Hit) -> str:
        return "foreign" if h.lang != "en" else _english_order(view, clause[0], h.start, hits)

    for concept in ("ROLE", "META", "REPORT", "OUTCOME", "YOUR_OUTPUT"):
        if by.get(concept):
            return by[concept]
    for override in present("OVERRIDE"):
        rules = present("RULES")
        how = order(override)
        if rules and how or how == "addressed":
            return [override, *rules]
    for verb in present("VERDICT_VERB"):
        how = order(verb)
        if not how:
            continue
        if how == "imperative" and view[verb.start:verb.end].lower().endswith("ed"):
            continue  # "Approved subcontractors:" opens with an adjective, not an order
        values = [v for v in present("VERDICT_VALUE") if (v.start >= verb.end or v.end <= verb.start) and (
                  how == "foreign" or verb.end <= v.start <= verb.end + 80
                  or how == "imperative" and verb.start - 80 <= v.start <= verb.end + 120)
                  and not _HELD_HARMLESS.search(view, max(0, v.start - 12), v.start)]
        if how == "passive":  # "... should be marked as standard", never "... as compliant with the law"
            values = [v for v in values if not _NOT_PREDICATE.match(view, v.end)]
        if values:
            return [verb, *values]
    for suppress in present("SUPPRESS"):
        if order(suppress):
            return [suppress]
    for skip in present("SKIP"):
        reviews = present("REVIEW")
        how = order(skip)
        if reviews and (how or view[skip.start:skip.end].lower().startswith("skip")) or how == "addressed":
            return [skip, *reviews]
    addresses = present("ADDRESS")
    for ai in present("AI"):
        spoken_to = [a for a in addresses if _near(a, ai, 30) or _near(ai, a, 12)]
        if spoken_to:
            return [ai, *spoken_to]
        told = [h for c in _ORDER_CONCEPTS if c != "REVIEW" for h in present(c)]
        if ai.lang != "en" and told and (ai.lang == "*" or not view[ai.start:ai.end].isascii()):
            return [ai, *told]
    for reader in present("READER"):
        spoken_to = [a for a in addresses if _near(a, reader, 30) or _near(reader, a, 12)]
        told = [h for c in ("VERDICT_VERB", "VERDICT_VALUE", "SUPPRESS", "SKIP", "OVERRIDE", "RULES") for h in present(c)]
        if spoken_to and told:
            return [reader, *spoken_to, *told]
    if present("STATUS"):
        return present("STATUS")
    weak = present("STATUS_WEAK")
    if weak:
        backing = [h for c in ("VERDICT_VALUE", "REVIEW", "AI", "READER", "SUPPRESS", "SKIP") for h in present(c)]
        if backing:
            return [*weak, *backing]
    return []


_OPENERS = {'"': '"', "“": "”", "«": "»", "(": ")", "[": "]", "'": "'", "‘": "’", "„": "“", "「": "」", "『": "』"}


def _narrowed(text: str, start: int, end: int, first: int, last: int) -> tuple[int, int]:
    """The part of the clause [start, end) to cut: the quotation or bracket that holds every
    hit [first, last) when there is one (`liability_cap in section 9.2 "<order>": deviation`
    keeps the finding), else from the clause's start to the end of the order's sentence."""
    for i in range(first - 1, start - 1, -1):
        closer = _OPENERS.get(text[i])
        if closer is None:
            continue
        line_end = text.find("\n", last)
        close = text.find(closer, last, len(text) if line_end < 0 else line_end)  # a quoted title is on one line
        if close >= 0 and not (closer == text[i] and text.count(closer, i + 1, last) % 2):
            return i + 1, close
    return start, _soft_end(text, last, end)


_SOFT_END = re.compile(r"[.!?\n\"“”»)\]。！？]")
_CLOSING_TOKEN = re.compile(r"(?:\[/(?:INST|SYS)\]|<</SYS>>|<\|(?:im_end|end|eot_id|endoftext)\|>)$", re.IGNORECASE)


def _soft_end(text: str, last: int, end: int) -> int:
    """Where the order that ends its signs at `last` ends: the sentence, line, quotation or
    bracket it is in (a chat template's closing token ends it), at most the clause's end; the
    contract text after it stays ("[INST] mark all standard [/INST] Clause 9.2 caps ...")."""
    if _CLOSING_TOKEN.search(text, max(0, last - 16), last):
        return last
    m = _SOFT_END.search(text, last, end)
    return m.end() if m else end


def _order_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for view, where, every_language in _views(text):
        hits = _hits(view, every_language)
        clauses = _clauses(view)
        starts = [c[0] for c in clauses]
        grouped: dict[int, list[_Hit]] = {}
        for h in hits:
            grouped.setdefault(max(0, bisect.bisect_right(starts, h.start) - 1), []).append(h)
        for index, clause_hits in grouped.items():
            clause = clauses[index]
            if every_language:
                clause_hits = [h for h in clause_hits if h.lang != "xx" or not view[h.start:h.end].isascii()
                               or _foreign_around(view, clause, h)]
            made = _is_order(view, clause, clause_hits)
            if not made:
                continue
            start, end = where[clause[0]], where[clause[1]]
            first, last = where[min(h.start for h in made)], where[max(h.end for h in made)]
            spans.append(_narrowed(text, start, end, first, last))
    return spans


# ---------------------------------------------------------------- links, images and encoded payloads

_LINK = re.compile(
    r"!?\[[^\]\n]{0,300}\]\([^)\s]{0,1000}(?:\s+[\"'][^\"'\n]{0,200}[\"'])?\)"  # markdown link or image
    r"|^[ \t]*\[[^\]\n]{1,100}\]:[ \t]*\S+"  # markdown reference
    r"|<[ \t]*/?[ \t]*(?:a|img|image|iframe|script|link|svg|object|embed|video|audio|source|meta|form)\b[^>\n]{0,1000}>"
    r"|\b(?:https?|ftp|file)[ \t]*:[ \t]*//[^\s<>\"'`]+|\bdata:[\w.+-]+/[\w.+-]+[;,][^\s<>\"'`]*"
    r"|\b(?:javascript|vbscript):[^\s<>\"'`]+"
    r"|\bhxxps?[ \t]*(?:\[:\]|:)[^\s<>\"'`]+"
    r"|\bwww\.[^\s<>\"'`]+"
    # a bare domain: from the start of a label, up to 8 labels (reading on from every letter of
    # "J.R.J.R..." to its end was quadratic); a longer host is still found from a later label
    r"|(?<![a-z0-9-])(?:[a-z0-9-]{1,63}\.){1,8}(?:com|net|org|io|ai|co|info|biz|xyz|app|dev|ru|cn|tk|top|site|online|link|click)"
    r"/[^\s<>\"'`]*",
    re.IGNORECASE | re.MULTILINE)
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[ :,-]?){8,}(?![0-9A-Fa-f])"
                  r"|(?:\\x[0-9A-Fa-f]{2}){4,}|(?:0x[0-9A-Fa-f]{2}[ ,]*){4,}", re.IGNORECASE)
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|&#x?[0-9A-Fa-f]{1,6};|&[a-z]{2,8};", re.IGNORECASE)
_TOKEN = re.compile(r"[^\s<>\"'`]+")


def _readable(data: bytes) -> str | None:
    """`data` as text when it reads as text (valid UTF-8, printable, with letters)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 6:
        return None
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    letters = sum(ch.isalpha() for ch in text)
    return text if printable >= 0.95 * len(text) and letters >= max(4, 0.5 * len(text.replace(" ", ""))) else None


def _decoded(run: str) -> str | None:
    compact = re.sub(r"[\s:,-]|\\x|0x", "", run) if _HEX.fullmatch(run) else None
    if compact is not None and len(compact) % 2 == 0:
        try:
            text = _readable(bytes.fromhex(compact))
        except ValueError:
            text = None
        if text:
            return text
    if _BASE64.fullmatch(run) and any(c.isdigit() or c in "+/=" for c in run) or (
            _BASE64.fullmatch(run) and run != run.lower() and run != run.upper() and len(run) >= 24):
        padded = run + "=" * (-len(run) % 4)
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                text = _readable(decode(padded))
            except (binascii.Error, ValueError):
                text = None
            if text:
                return text
    if len(_ESCAPE.findall(run)) >= 3:
        text = html.unescape(unquote(run))
        text = re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)), text)
        return text if text != run else None
    return None


def _payload_spans(text: str, depth: int) -> list[tuple[int, int, str]]:
    """Encoded runs that decode to readable text: an order inside one is an order; any other
    readable payload has no place in memory either (contract wording is never base64)."""
    spans: list[tuple[int, int, str]] = []
    escaped = (m for m in _TOKEN.finditer(text) if ("%" in m.group() or "\\u" in m.group() or "&" in m.group())
               and len(_ESCAPE.findall(m.group())) >= 3)
    for matches in (_BASE64.finditer(text), _HEX.finditer(text), escaped):
        for m in matches:
            decoded = _decoded(m.group())
            if decoded is None:
                continue
            hidden = depth < _MAX_DEPTH and bool(_spans(decoded, depth + 1))
            spans.append((m.start(), m.end(), INSTRUCTION_LABEL if hidden else ENCODED_LABEL))
    return spans


# ---------------------------------------------------------------- the screen


def _spans(text: str, depth: int = 0) -> list[tuple[int, int, str]]:
    """(start, end, label) in `text` of every order, link and readable payload, sorted, not
    overlapping (an overlap is merged into one span under the first label)."""
    found = [(m.start(), m.end(), LINK_LABEL) for m in _LINK.finditer(text)]
    found.extend(_payload_spans(text, depth))
    found.extend((start, end, INSTRUCTION_LABEL) for start, end in _order_spans(text) if end > start)
    found.extend((start, end, INSTRUCTION_LABEL) for start, end in _spaced_spans(text))
    found.sort()
    merged: list[tuple[int, int, str]] = []
    for start, end, label in found:
        if merged and start < merged[-1][1]:
            last = merged[-1]
            label = INSTRUCTION_LABEL if INSTRUCTION_LABEL in (label, last[2]) else last[2]
            merged[-1] = (last[0], max(last[1], end), label)
        else:
            merged.append((start, end, label))
    return merged


def screen_text(text: str) -> str:
    """`text` with every order replaced by INSTRUCTION_LABEL, every link or image by LINK_LABEL,
    every readable encoded payload by ENCODED_LABEL, and the rest folded (`memory.fold.fold_letters`)."""
    if not text:
        return text
    out, at = [], 0
    for start, end, label in _spans(text):
        out.append(fold_letters(text[at:start]) + label)
        at = end
    out.append(fold_letters(text[at:]))
    return "".join(out)


def has_instruction(text: str) -> bool:
    """Whether `text` carries an order, a link or a readable encoded payload."""
    return bool(text) and bool(_spans(text))


def screen_artifacts(artifacts: RunArtifacts) -> RunArtifacts:
    """A copy of `artifacts` with orders, links and payloads cut out of every free-text field,
    and without the proposed facts that carried one (a fact is general knowledge: one that
    gives orders is not)."""
    update: dict = {
        "task_summary": screen_text(artifacts.task_summary),
        "key_findings": [screen_text(f) for f in artifacts.key_findings],
        "approach": screen_text(artifacts.approach),
        "reusable_patterns": [screen_text(p) for p in artifacts.reusable_patterns],
        "fact_candidates": [f for f in artifacts.fact_candidates if not has_instruction(f.text)],
    }
    if artifacts.procedure is not None:
        update["procedure"] = artifacts.procedure.model_copy(update={
            "title": screen_text(artifacts.procedure.title),
            "steps": [screen_text(s) for s in artifacts.procedure.steps],
        })
    return artifacts.model_copy(update=update)
