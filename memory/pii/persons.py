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
import unicodedata
from collections.abc import Iterable, Iterator
from functools import lru_cache
from importlib import resources

from memory.pii.base import PERSON, PiiEntity

# Latin-1 and Latin Extended-A (their capitals and small letters alternate), Cyrillic and Greek
_UP = "A-ZÀ-ÖØ-ÞĀ-žЀ-ЯΆ-Ϋ"
_LOW = "a-zß-öø-ÿĀ-žа-џά-ώ"
# Eigen, O'Brien, McAllister, Adebayo-Cole; an all-capitals word for headings and preambles
# Eigen, O'Brien, McAllister, Adebayo-Cole, Hyun-woo, Jean-Pierre
_TITLE_WORD = rf"[{_UP}](?:[{_LOW}]+|['’][{_UP}][{_LOW}]+|c[{_UP}][{_LOW}]+)(?:-[{_UP}]?[{_LOW}]+)?"
_CAPS_WORD = rf"[{_UP}](?:[{_UP}]+|['’][{_UP}]{{2,}})(?:['’-][{_UP}]{{2,}})?"
# surname particles: Pieter de Vries, Ludwig van der Berg, Rania al Masri
_PARTICLES = r"(?:[ \t]+(?i:de|dela|delos|van|von|zu|der|den|da|di|del|della|la|le|bin|ibn|al|el|ter|ten|dos|das|du|ní|nic|bint)){0,2}"
_PAIR = re.compile(
    rf"(?<![\w'’-])(?P<first>{_TITLE_WORD})(?:[ \t]+[{_UP}]\.)?{_PARTICLES}[ \t]+(?P<last>{_TITLE_WORD})"
    rf"(?![\w-]|['’](?![sS]\b)|\.[{_UP}])"
    rf"|(?<![\w'’-])(?P<cfirst>{_CAPS_WORD})(?:[ \t]+[{_UP}]\.)?{_PARTICLES}[ \t]+(?P<clast>{_CAPS_WORD})(?![\w-]|['’](?![sS]\b))"
)
_NAME_WORD = rf"[{_UP}][{_UP}{_LOW}'’]*[{_LOW}{_UP}](?:-[{_UP}]?[{_UP}{_LOW}'’]+)?"
# a surname behind a small particle: "al-Zahra", "el-Amin", "ibn-Rushd", "d'Alembert", "O'Neill"
_PREFIXED = rf"(?:al|el|ad|ash|as|at|az|bin|ibn|ben|abu|d|de|da|di|o|O)[-’'][{_UP}][{_UP}{_LOW}'’]*[{_LOW}{_UP}]"
_DESCRIBED = re.compile(  # one word too: a person known by a single name ("Suharto, an individual")
    rf"(?<![\w'’-])(?P<v>{_NAME_WORD}(?:[ \t]+(?:[{_UP}]\.?|{_PREFIXED}|{_NAME_WORD})){{0,3}})"
    r"(?=,?[ \t]+(?:an?[ \t]+)?(?:individual|natural[ \t]+person|private[ \t]+person|sole[ \t]+(?:trader|proprietor)"
    r"|self-employed|residing|resident[ \t]+at|born[ \t]+on|date[ \t]+of[ \t]+birth)\b"
    r"|,[ \t]+(?:an?[ \t]+)?(?:individual|natural person|sole (?:trader|proprietor))\b)"
)
# initials before a surname: "J. R. Smith", "J.R. Smith", "A. Kowalska"
_INITIALLED = re.compile(rf"(?<![\w.'’-])(?P<v>(?P<initials>(?:[{_UP}]\.[ \t]?){{1,3}})(?P<last>{_TITLE_WORD}|{_CAPS_WORD}))"
                         rf"(?![\w-]|\.[{_UP}])")
# dotted abbreviations that are not initials: "U.S. Dollars", "P.O. Box", "E.G. TRASH", "F.O.B. Atlanta"
_ABBREVIATIONS = frozenset("US UK EU EG IE PO LP FOB NA DC NY UN AM PM BV NV SA AG USA UAE PRC ROC ET AL VS NB PS".split())
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
_FUNCTION = frozenset(
    """
    a an the and or of in on at to by for with from as is be are was were will may can shall must
    should would could might do does did done has have had not no nor but if then than this that
    these those it its all any each every such other some same own only more most less least new
    per via upon under over after before between among within without about above below into out
    up down off again further once here there when where why how what which who whom whose
    i me my we our you your he him his she her they them their one two three four five six seven
    eight nine ten first second third last next
    """.split()
)
_COMMON = _FUNCTION | frozenset(
    """
    will bill mark grant june april august dawn joy hope faith grace rose lily may summer autumn
    chance rich price case page art sale star sun major royal golden general frank earl duke king
    prince sterling miles young lane park hill ford carter cash pat don van del la le ma al
    christian bishop dean guy ray jack baker cook mason porter major sky river stone wood ash
    america red so non sub co anti bi pre re un
    """.split()
)


def _name_list(name: str) -> frozenset[str]:
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    """Known given names, lower case (memory/pii/given_names.txt), less the common words."""
    return _name_list("given_names.txt") - _COMMON


@lru_cache(maxsize=1)
def surnames() -> frozenset[str]:
    """Known surnames, lower case (memory/pii/surnames.txt), less the common, clause, place and
    organisation words ("Hall", "Price", "Street" are surnames too)."""
    return _name_list("surnames.txt") - _COMMON - _NOT_NAME


@lru_cache(maxsize=1)
def _all_surnames() -> frozenset[str]:
    return _name_list("surnames.txt") - _FUNCTION


# a romanised Korean or Chinese given name: two short syllables joined by a hyphen ("Hyun-woo", "Mei-ling")
_SYLLABLES = re.compile(r"[^\W\d_]{2,5}-[^\W\d_]{2,5}")




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


def _known_pair(first: str, last: str, given: frozenset[str], family: frozenset[str]) -> bool:
    """Whether two words read as a person's name by the lists: a given name first, or a surname
    last ("Hyun-woo Park"), or a surname first and a given name after it ("Zhang Wei", "Park
    Hyun-woo", as Chinese, Korean, Japanese and Hungarian write them)."""
    f, la = first.lower(), last.lower()
    return (f in given or la in family and len(la) >= 4 or (f in family and la in given)
            or bool(_SYLLABLES.fullmatch(first)) and la in _all_surnames())


def person_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of every name with no cue in `text` (see the module doc)."""
    words, companies = lower_words(text), company_words(text)
    given, family = given_names(), surnames()
    at = 0
    while (m := _PAIR.search(text, at)) is not None:
        first, last = (m.group("first"), m.group("last")) if m.group("first") else (m.group("cfirst"), m.group("clast"))
        syllables = bool(_SYLLABLES.fullmatch(first)) and last.lower() in _all_surnames()  # "Hyun-woo Park"
        if (not _known_pair(first, last, given, family) or is_wordish(first, words, companies)
                or is_wordish(last, words, companies) and not syllables
                or _COMPANY_AFTER.match(text, m.end()) or _in_longer_name(text, m.start(), m.end())):
            at = m.start() + len(first)  # "AND MARISOL ETXEBERRIA": try again from the next word
            continue
        yield m.start(), m.end()
        at = m.end()
    for m in _INITIALLED.finditer(text):  # "J. R. Smith": initials and a known surname
        last = m.group("last")
        # a known surname after one initial; any name word after two ("K. L. Oyelaran")
        initials = re.sub(r"[.\s]", "", m.group("initials"))
        known = last.lower() in family or (len(initials) >= 2 and initials not in _ABBREVIATIONS
                                           and last.lower() not in _FUNCTION)
        if (known and not is_wordish(last, words, companies)
                and not _COMPANY_AFTER.match(text, m.end()) and not _in_longer_name(text, m.start(), m.end())):
            yield m.start("v"), m.end("v")
    for m in _DESCRIBED.finditer(text):
        value = m.group("v")
        if not any(w.lower() in _NOT_NAME or w.lower() in _COMMON for w in re.findall(r"[\w'’-]+", value)):
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


_PARTICLE_WORDS = frozenset("de dela delos van von zu der den da di del della la le bin ibn al el ter ten dos das du ní nic bint".split())


def _identifier_names(identifier: str, offset: int, given: frozenset[str]) -> Iterator[tuple[int, int]]:
    """Names in a file name or identifier: a given name and the word right after it
    (`msa_ravi_menon_2024.pdf`, `ravi-menon`, `Ravi.Menon`), surname particles and the word after
    them (`supply_agreement_van_der_berg_2025.txt`), a known surname (`nda_nguyen_2024.pdf`). A
    file extension is no name."""
    parts = list(re.finditer(r"[^\W\d_]+", identifier))
    family = surnames()
    extension = parts[-1] if parts and identifier[parts[-1].start() - 1:parts[-1].start()] == "." else None
    for i, word in enumerate(parts):
        low = word.group().lower()
        if word is extension or low in _COMMON or low in _NOT_NAME:
            continue
        if low in _PARTICLE_WORDS:  # van_der_berg: the particles and the surname after them
            j = i
            while j + 1 < len(parts) and parts[j + 1].group().lower() in _PARTICLE_WORDS:
                j += 1
            if j + 1 < len(parts) and parts[j + 1] is not extension and len(parts[j + 1].group()) >= 3 and (
                    parts[j + 1].group().lower() not in _COMMON | _NOT_NAME) and j > i - 1 and (j > i or low in ("van", "von", "bin", "ibn", "al", "el", "della", "dos", "das")):
                yield offset + word.start(), offset + parts[j + 1].end()
            continue
        if low in family and len(low) >= 4:
            yield offset + word.start(), offset + word.end()
        if i + 1 >= len(parts):
            continue
        after = parts[i + 1]
        if len(after.group()) == 1 and i + 2 < len(parts):  # a middle initial: jane_q_doughty
            after = parts[i + 2]
        gaps = re.sub(r"[^\W\d_]", "", identifier[word.end() : after.start()])
        if (gaps and len(gaps) <= 2 and not re.search(r"\d", identifier[word.end() : after.start()])
                and after is not extension and low in given and len(after.group()) >= 2
                and after.group().lower() not in _COMMON and after.group().lower() not in _NOT_NAME):
            yield offset + word.start(), offset + after.end()


_FOLD = str.maketrans({"ß": "ss", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "đ": "d", "Đ": "D",
                       "ı": "i", "þ": "th", "Þ": "Th", "œ": "oe", "Œ": "OE"})
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґ",
                     "a b v g d e yo zh z i y k l m n o p r s t u f kh ts ch sh shch  y  e yu ya i yi ye g".split(" "),
                     strict=False))
_GREEK = dict(zip("αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώ", "a v g d e z i th i k l m n x o p r s s t y f ch ps o a e i i o y o".split(),
                  strict=True))


def _spellings(word: str) -> set[str]:
    """`word` as it may be written elsewhere in a run: without accents ("Müller" -> "Muller",
    "Mueller"), in Latin letters when it is Cyrillic or Greek ("Петров" -> "Petrov"), and a
    hyphenated given name joined or spaced ("Hyun-woo" -> "Hyunwoo", "Hyun woo")."""
    forms = {word}
    plain = "".join(c for c in unicodedata.normalize("NFKD", word.translate(_FOLD)) if not unicodedata.combining(c))
    forms.update({plain, "".join(c for c in unicodedata.normalize("NFKD", word.translate(_GERMAN).translate(_FOLD))
                                 if not unicodedata.combining(c))})
    low = word.lower()
    table = _CYRILLIC if any(c in _CYRILLIC for c in low) else _GREEK if any(c in _GREEK for c in low) else None
    if table is not None:
        latin = "".join(table.get(c, c) for c in low)
        forms.add(latin[:1].upper() + latin[1:])
    if "-" in word:
        forms.update({word.replace("-", ""), word.replace("-", " ")})
    return {f for f in forms if f}


def name_forms(name: str, words_here: frozenset[str] = frozenset()) -> tuple[set[str], set[str]]:
    """(sequences, words) a person's name may take: the whole name in its orders and spellings,
    with initials for the given names ("J. R. Smith", "Smith, J."); and each part alone (given
    name, middle name, surname, the surname with its particles) that is not an ordinary word."""
    parts = re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", name)
    parts = [w for w in parts if w.lower() not in ("mr", "mrs", "ms", "miss", "mx", "dr", "prof")]
    if not parts:
        return set(), set()
    sequences: set[str] = set()
    words: set[str] = set()
    core = [w for w in parts if w.lower() not in _PARTICLE_WORDS]
    for variant in _spelled(parts):
        sequences.add(" ".join(variant))
        if len(variant) >= 2:
            sequences.add(" ".join([variant[-1], *variant[:-1]]))  # "Park Hyun-woo", "SMITH John"
            initials = [w[0] + "." for w in variant[:-1] if w.lower() not in _PARTICLE_WORDS]
            if initials:
                sequences.add(" ".join([*initials, variant[-1]]))  # "J. R. Smith"
                sequences.add(variant[-1] + ", " + " ".join(initials))  # "Smith, J. R."
    for word in core:  # a found person's name is theirs even when it is also a place word ("Park")
        if len(word) >= 3 and word.lower() not in _FUNCTION and word.lower() not in words_here:
            words.update(_spellings(word))
    particles = [w for w in parts[:-1] if w.lower() in _PARTICLE_WORDS]
    if particles and len(parts) >= 2:
        words.add(" ".join([*particles, parts[-1]]))  # "van der Berg"
    return sequences, words


def _spelled(parts: list[str]) -> list[list[str]]:
    """The name's parts in each spelling of `_spellings`, word by word in parallel."""
    variants = [sorted(_spellings(w)) for w in parts]
    out = [list(parts)]
    for k in range(max(len(v) for v in variants)):
        out.append([v[min(k, len(v) - 1)] for v in variants])
    return out


_LETTERS = re.compile(r"[^\W\d_]+")
_GAP = re.compile(r"[\s_.,'’-]{1,64}")  # what may stand between two words of one name (bounded)
_SEQ_GAP = re.compile(r"[\s_.,-]+")
_SEQ, _SPACE, _IDENT = "seq", "space", "ident"  # gap kinds: whole names, words of several parts, identifiers


def _units(form: str, between: str) -> tuple[tuple[str, str], ...]:
    """`form` as (gap before, word) pairs, lower case: its letter runs; the gap before the first is
    empty, a gap inside a word ("Hyun-woo", "O'Brien") is itself ("=-"), a gap between its
    blank-separated words is `between`. An initial's dot belongs to the gap ("J. R." -> j, r)."""
    units: list[tuple[str, str]] = []
    for k, token in enumerate(t for t in re.split(r"[\s,]+" if between == _SEQ else r"\s+", form) if t):
        runs = list(_LETTERS.finditer(token))
        for n, run in enumerate(runs):
            gap = (between if k else "") if n == 0 else "=" + token[runs[n - 1].end():run.start()]
            units.append((gap, run.group().lower()))
    return tuple(units)


class _Trie:
    """Names as sequences of (gap kind, word): read from each word of a text, a name is matched in
    as many steps as it has words, whatever the number of names (one alternation of thousands of
    names would be read at every position: quadratic on a text bomb naming thousands of people)."""

    def __init__(self) -> None:
        self.root: dict = {}

    def add(self, units: tuple[tuple[str, str], ...], kind: str, cased: tuple[str, ...] = ()) -> None:
        node = self.root
        for i, (gap, word) in enumerate(units):
            node = node.setdefault((gap if i else "", word), {})
        node.setdefault(("end", kind), set()).add(cased)

    def matches(self, text: str) -> Iterator[tuple[str, int, int, tuple[str, ...], set]]:
        """(kind, start, end, the words as written, accepted) of every name starting at each word of `text`."""
        root = self.root
        for m in _LETTERS.finditer(text):
            first = root.get(("", m.group().lower()))
            nodes, start, end, words = [first] if first is not None else [], m.start(), m.end(), [m.group()]
            while nodes:  # the nodes this far: one gap may be read as several kinds ("-": in a word, an identifier)
                for node in nodes:
                    for key, accepted in node.items():
                        if key[0] == "end":
                            yield key[1], start, end, tuple(words), accepted
                gap = _GAP.match(text, end)
                following = _LETTERS.match(text, gap.end()) if gap else None
                if following is None:
                    break
                g, word = gap.group(), following.group().lower()
                kinds = ["=" + g]
                if _SEQ_GAP.fullmatch(g):
                    kinds.append(_SEQ)
                if g.isspace():
                    kinds.append(_SPACE)
                if g in ("_", ".", "-"):
                    kinds.append(_IDENT)
                nodes = [node[(k, word)] for node in nodes for k in kinds if (k, word) in node]
                end = following.end()
                words.append(following.group())


def _before(text: str, i: int) -> str:
    return text[i - 1] if i > 0 else ""


def occurrences(text: str, names: Iterable[str]) -> Iterator[PiiEntity]:
    """Every occurrence in `text` of each of `names` in every form (`name_forms`): the whole name
    whatever its case, spacing, order or initials, and each part alone as a name is written
    (capitalised, in capitals, or inside an identifier such as a file name), possessives too.
    Linear in the text and in the number of names (`_Trie`)."""
    # words the text writes in lower case (not its defined terms: a quoted title may hold the name)
    words_here = frozenset(re.findall(rf"(?<![\w'’-])[{_LOW}][{_LOW}'’-]+", text))
    trie = _Trie()
    for name in names:
        sequences, words = name_forms(name, words_here)
        for sequence in sequences:
            trie.add(_units(sequence, _SEQ), _SEQ)
            initials = re.fullmatch(r"((?:\w\.\s*)+)(.+)", sequence)  # "J. R. Smith" written "JR Smith"
            if initials:
                trie.add(_units(re.sub(r"[.\s]", "", initials.group(1)) + " " + initials.group(2), _SEQ), _SEQ)
        for word in words:
            for cased in {word, word[:1].upper() + word[1:], word.upper()}:
                trie.add(_units(cased, _SPACE), _SPACE, tuple(_LETTERS.findall(cased)))
            trie.add(_units(word, _IDENT), _IDENT)
    for kind, start, end, written, accepted in trie.matches(text):
        before, after = _before(text, start), text[end:end + 1]
        if kind == _SEQ:  # any case
            if not re.match(r"[\w-]", before) and not re.match(r"[\w-]", after):
                yield PiiEntity(PERSON, start, end, 0.8)
        elif kind == _SPACE:  # as a name is written; a possessive too
            if (written in accepted and not re.match(r"[\w'’-]", before)
                    and not re.match(r"[\w-]|['’](?![sS]\b)", text[end:end + 3])):
                yield PiiEntity(PERSON, start, end, 0.7)
        # inside identifiers and file names, any case: "supply_agreement_van_der_berg_2025.txt"
        elif (before in ("_", ".", "/", "-") and (not after or after in "_./-" or after.isdigit())
              or not re.match(r"[\w'’-]", before) and after and after in "_.-"):
            yield PiiEntity(PERSON, start, end, 0.7)
