"""Personal names with no cue: a known given name followed by a surname, a party described as a
natural person, a name written into a file name.

The cue-led recognizers of `memory.pii.local` ("Name:", "Mr.", "signed by") miss a person who
contracts in their own name ("between Acme Corp and Marisol Etxeberria"), a name in a heading or a
section title, and `msa_ravi_menon_2024.pdf`. No offline NER model is loaded (docs/SECURITY.md,
"Names without a cue", gives the figures of the spaCy model this was weighed against: it took
every "Manufacturer" and "Licensee" for a person and read 12 KB a second); instead:

- a capitalised pair (or an all-capitals pair) whose first word is a known given name, with an
  optional middle initial, and whose second word reads as a surname, is a name. A word the text
  itself also writes in lower case ("Grant", "May", "Will", "Mark") is a word, not a name; so is
  a pair followed by a company form ("Morgan Stanley & Co.", "Jordan Ltd") or ending in a street,
  organisation or clause word ("Victoria Street", "Austin Office");
- a capitalised name followed by a description only a natural person has ("an individual", "a
  sole trader", "residing at") is a name, known given name or not;
- in a file name (`msa_ravi_menon_2024.pdf`, or a text that is one token), a known given name
  followed by another word is a name (a clause id such as `sole_remedy` is not a file name).

A pair is not a name either when one of its words belongs to a company the same text names with
a company form ("Ingram Micro Inc." elsewhere makes "INGRAM MICRO" and "Ingram" company words).

The given names (about 20,000, of some 80 locales) are in `given_names.txt`, written by
scripts/given_names.py from Faker's person data (MIT licence).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from importlib import resources

from memory.pii.base import PERSON, PiiEntity

_UP = "A-ZÀ-ÖØ-ÞĀ-ž"  # Latin-1 and Latin Extended-A (its capitals and small letters alternate)
_LOW = "a-zß-öø-ÿĀ-ž"
# Eigen, O'Brien, McAllister, Adebayo-Cole; an all-capitals word for headings and preambles
_TITLE_WORD = rf"[{_UP}](?:[{_LOW}]+|['’][{_UP}][{_LOW}]+|c[{_UP}][{_LOW}]+)(?:-[{_UP}][{_LOW}]+)?"
_CAPS_WORD = rf"[{_UP}](?:[{_UP}]+|['’][{_UP}]{{2,}})(?:['’-][{_UP}]{{2,}})?"
# surname particles: Pieter de Vries, Ludwig van der Berg, Rania al Masri
_PARTICLES = r"(?:[ \t]+(?i:de|van|von|der|den|da|di|del|della|la|le|bin|ibn|al|el|ter|ten|dos|das|du)){0,2}"
_PAIR = re.compile(
    rf"(?<![\w'’-])(?P<first>{_TITLE_WORD})(?:[ \t]+[{_UP}]\.)?{_PARTICLES}[ \t]+(?P<last>{_TITLE_WORD})"
    rf"(?![\w-]|['’](?![sS]\b)|\.[{_UP}])"
    rf"|(?<![\w'’-])(?P<cfirst>{_CAPS_WORD})(?:[ \t]+[{_UP}]\.)?{_PARTICLES}[ \t]+(?P<clast>{_CAPS_WORD})(?![\w-]|['’](?![sS]\b))"
)
_NAME_WORD = rf"[{_UP}][{_UP}{_LOW}'’]*[{_LOW}{_UP}](?:-[{_UP}][{_UP}{_LOW}'’]*)?"
_DESCRIBED = re.compile(
    rf"(?<![\w'’-])(?P<v>{_NAME_WORD}(?:[ \t]+(?:[{_UP}]\.|{_NAME_WORD})){{1,3}})"
    r"(?=,?[ \t]+(?:an?[ \t]+)?(?:individual|natural[ \t]+person|private[ \t]+person|sole[ \t]+(?:trader|proprietor)"
    r"|self-employed|residing|resident[ \t]+at|born[ \t]+on|date[ \t]+of[ \t]+birth)\b"
    r"|,[ \t]+(?:an?[ \t]+)?(?:individual|natural person|sole (?:trader|proprietor))\b)"
)
_DEFINED = re.compile(r"[\"“]([^\"“”\n]{2,60})[\"”]")
# Words that may stand right before or after a name on its line: connectors, cues, labels, roles.
# Any other capitalised neighbour makes the pair part of a longer proper noun ("Consumer Price
# Index for All Urban Consumers", "Unique Entity Number").
_NEIGHBOURS = frozenset(
    """
    by and or of to for with from between among per via dear contact attention attn signed approved
    cc name title position date email e-mail phone tel telephone mobile fax signature address witness
    mr mrs ms miss mx dr prof sir madam
    """.split()
)
_WORD_BEFORE = re.compile(rf"(?<![\w'’.-])([{_UP}][\w'’.-]*)[ \t]+$")
_LOOK_BACK = 80  # characters read before a pair for a capitalised neighbour (bounded: linear time)
_WORD_AFTER = re.compile(rf"[ \t]+([{_UP}][\w'’-]*)")
_IDENTIFIER = re.compile(r"(?<![\w.-])[\w]+(?:[_.-][\w]+)+")
_FILE_NAME = re.compile(r"\.(?:pdf|txt|docx?|rtf|odt|md|html?|xml|json|eml|msg|png|jpe?g|tiff?)$", re.IGNORECASE)
_COMPANY_FORM = (
    r"(?:&|and[ \t]+(?:Co|Company|Sons|Associates|Partners)\b|Inc\b|LLC\b|L\.L\.C\.|Ltd\b|Limited\b|plc\b"
    r"|PLC\b|GmbH\b|AG\b|Corp\b|Corporation\b|Company\b|Co\.|LLP\b|LP\b|S\.A\.|SA\b|B\.V\.|BV\b|N\.V\.|NV\b|Pte\b"
    r"|Pty\b|S\.p\.A\.|S\.r\.l\.|Group\b|Holdings\b|Foundation\b|Partners\b|Associates\b|Trust\b|Bank\b|University\b)"
)
_COMPANY_AFTER = re.compile(rf"[ \t]*(?:,[ \t]*)?{_COMPANY_FORM}", re.IGNORECASE)
# starts at the first blank of a run only (the look-behind), so a long run of blanks is read once
_COMPANY_ANYWHERE = re.compile(rf"(?<![ \t,])(?:[ \t]*,[ \t]*|[ \t]+){_COMPANY_FORM}", re.IGNORECASE)
_WORDS_BEFORE = re.compile(rf"(?:[{_UP}][\w&'’.-]*[ \t]+){{0,3}}[{_UP}][\w&'’.-]*$")

# Words that end or start a capitalised pair that is not a person: organisations, places, streets,
# documents and clause words. (Words the text writes in lower case are rejected anyway; these are
# the ones a contract capitalises everywhere.)
_NOT_NAME = frozenset(
    """
    agreement amendment annex appendix article attachment exhibit schedule section clause part recital
    addendum order statement work works product products service services software system systems
    customer supplier buyer seller vendor licensee licensor distributor manufacturer contractor consultant
    company corporation corp inc llc ltd limited plc gmbh group holdings partners associates bank trust
    university college hospital school institute foundation fund council authority agency department
    board committee office team division unit center centre laboratories labs technologies technology
    international global national american european pacific atlantic north south east west northern
    southern eastern western central new saint st san santa fort mount lake river valley bay beach island
    city county state states kingdom republic street road avenue drive lane boulevard way place plaza
    court circle crescent terrace square highway close gardens row walk mews park estate hill hills
    heights airport station tower building house hall mall ave point ridge haven garden harbor harbour
    president vice director officer manager chairman chairwoman chair secretary treasurer counsel partner
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday
    law laws act code rules court courts term terms date effective price prices fee fees
    confidential information notice notices dispute disputes force majeure governing
    """.split()
)
# Function words and the commonest English words that are also given names: never a name alone.
_COMMON = frozenset(
    """
    a an the and or of in on at to by for with from as is be are was were will may can shall must
    should would could might do does did done has have had not no nor but if then than this that
    these those it its all any each every such other some same own only more most less least new
    per via upon under over after before between among within without about above below into out
    up down off again further once here there when where why how what which who whom whose
    i me my we our you your he him his she her they them their one two three four five six seven
    eight nine ten first second third last next
    will bill mark grant june april august dawn joy hope faith grace rose lily may summer autumn
    chance rich price case page art sale star sun major royal golden general frank earl duke king
    prince sterling miles young lane park hill ford carter cash pat don van del la le ma al
    christian bishop dean guy ray jack baker cook mason porter major sky river stone wood ash
    america red so non sub co anti bi pre re un
    """.split()
)


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    """Known given names, lower case (memory/pii/given_names.txt), less the common words."""
    text = resources.files(__package__).joinpath("given_names.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#")) - _COMMON




def company_words(text: str) -> frozenset[str]:
    """Lower-cased words of the names `text` writes with a company form ("Ingram Micro Inc.")."""
    found: set[str] = set()
    for m in _COMPANY_ANYWHERE.finditer(text):
        before = _WORDS_BEFORE.search(text, max(0, m.start() - 120), m.start())
        if before:
            found.update(w.lower() for w in re.findall(r"[^\W\d_]+", before.group()))
    return frozenset(found)


def lower_words(text: str) -> frozenset[str]:
    """The words `text` writes in lower case, and those of its defined terms ("Sites" means ...),
    singular and plural: such a word is a word there, not a name."""
    words = set(re.findall(rf"(?<![\w'’-])[{_LOW}][{_LOW}'’-]+", text))
    for term in _DEFINED.findall(text):
        words.update(w.lower() for w in re.findall(r"[^\W\d_]+", term))
    return frozenset(words | {w[:-1] for w in words if w.endswith("s")} | {w + "s" for w in words})


def is_wordish(word: str, words: frozenset[str], companies: frozenset[str] = frozenset()) -> bool:
    """Whether `word` reads as a word, not a name: a clause, place or company word, a common word,
    or one the text writes in lower case (`words`) or in a company's name (`companies`)."""
    low = word.lower()
    return low in _NOT_NAME or low in _COMMON or low in words or low in companies


def person_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of every name with no cue in `text` (see the module doc)."""
    words, companies = lower_words(text), company_words(text)
    given = given_names()
    at = 0
    while (m := _PAIR.search(text, at)) is not None:
        first, last = (m.group("first"), m.group("last")) if m.group("first") else (m.group("cfirst"), m.group("clast"))
        if (first.lower() not in given or is_wordish(first, words, companies) or is_wordish(last, words, companies)
                or _COMPANY_AFTER.match(text, m.end()) or _in_longer_name(text, m.start(), m.end())):
            at = m.start() + len(first)  # "AND MARISOL ETXEBERRIA": try again from the next word
            continue
        yield m.start(), m.end()
        at = m.end()
    for m in _DESCRIBED.finditer(text):
        value = m.group("v")
        if not any(w.lower() in _NOT_NAME for w in re.findall(r"[\w'’-]+", value)):
            yield m.start("v"), m.end("v")
    single = not re.search(r"\s", text.strip())  # a file name alone: "ravi-menon" too
    for m in _IDENTIFIER.finditer(text):
        # file names only: "sole_remedy" (a clause id) and "non-exclusive" are words
        if single or _FILE_NAME.search(m.group()):
            yield from _identifier_names(m.group(), m.start(), given)


def _in_longer_name(text: str, start: int, end: int) -> bool:
    """Whether a capitalised word other than a connector, cue, label or role stands right before
    or after the pair on its line."""
    floor = max(0, start - _LOOK_BACK)
    line_start = max(text.rfind("\n", floor, start) + 1, floor)
    before = _WORD_BEFORE.search(text, line_start, start)
    after = _WORD_AFTER.match(text, end)
    return any(m is not None and not _neighbour(m.group(1)) for m in (before, after))


def _neighbour(word: str) -> bool:
    low = word.lower().rstrip(".:")
    return low in _NEIGHBOURS or low in _NOT_NAME


def _identifier_names(identifier: str, offset: int, given: frozenset[str]) -> Iterator[tuple[int, int]]:
    """A given name and the word right after it in `msa_ravi_menon_2024.pdf` (also `ravi-menon`,
    `Ravi.Menon`); a file extension is no surname."""
    parts = list(re.finditer(r"[^\W\d_]+", identifier))
    for i, word in enumerate(parts[:-1]):
        after = parts[i + 1]
        if len(after.group()) == 1 and i + 2 < len(parts):  # a middle initial: jane_q_doughty
            after = parts[i + 2]
        gaps = re.sub(r"[^\W\d_]", "", identifier[word.end() : after.start()])
        is_extension = gaps == "." and after.end() == len(identifier)
        if (gaps and len(gaps) <= 2 and not re.search(r"\d", identifier[word.end() : after.start()])
                and not is_extension and word.group().lower() in given and len(after.group()) >= 2
                and after.group().lower() not in _COMMON and after.group().lower() not in _NOT_NAME):
            yield offset + word.start(), offset + after.end()


def occurrences(text: str, names: Iterable[str]) -> Iterator[PiiEntity]:
    """Every occurrence in `text` of each of `names` (a person's whole name, whatever its case and
    spacing) and of its surname as a name is written (capitalised or in capitals)."""
    whole: set[str] = set()
    surnames: set[str] = set()
    words_here = lower_words(text)
    for name in names:
        words = re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", name)
        if not words:
            continue
        whole.add(r"[\s_.-]+".join(re.escape(w) for w in words))
        last = words[-1]
        if len(words) >= 2 and len(last) >= 3 and not is_wordish(last, words_here):
            surnames.update({last[0].upper() + last[1:].lower(), last.upper()})
    if whole:
        pattern = "|".join(sorted(whole, key=len, reverse=True))
        for m in re.finditer(rf"(?<![\w-])(?:{pattern})(?![\w-])", text, re.IGNORECASE):
            yield PiiEntity(PERSON, m.start(), m.end(), 0.8)
    if surnames:
        pattern = "|".join(re.escape(w) for w in sorted(surnames, key=len, reverse=True))
        for m in re.finditer(rf"(?<![\w'’-])(?:{pattern})(?![\w-]|['’](?![sS]\b))", text):
            yield PiiEntity(PERSON, m.start(), m.end(), 0.7)
