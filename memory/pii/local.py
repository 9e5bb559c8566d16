"""The offline scrubber: Presidio pattern recognizers plus recognizers written for contracts.

Presidio's recognizers (email, IBAN, credit card, phone numbers through libphonenumber, US SSN)
validate their matches by checksum or number plan. The local ones cover what supplier
contracts carry and Presidio has no offline recognizer for: person names in notice and
signature blocks, bank account, sort code and routing numbers, tax ids, street addresses, and
numbers broken across lines by PDF extraction. No spaCy model is loaded (none can be
downloaded here), so names are found by their cues ("Attention:", "Name:", "Mr."), then every
other occurrence of a found name is scrubbed too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from memory.pii.addresses import address_spans
from memory.pii.base import (
    BANK_ACCOUNT,
    CREDIT_CARD,
    IBAN_CODE,
    PERSON,
    PHONE_NUMBER,
    STREET_ADDRESS,
    TAX_ID,
    US_SSN,
    PiiEntity,
    ScrubResult,
    apply_entities,
)
from memory.pii.persons import occurrences, person_spans

_UP = "A-ZÀ-ÖØ-Þ"
_LOW = "a-zß-öø-ÿ"
_NAME_WORD = rf"[{_UP}][{_UP}{_LOW}'’]*[{_LOW}](?:-[{_UP}][{_UP}{_LOW}'’]*[{_LOW}])?"
_INITIAL = rf"[{_UP}]\."
# Field labels that may follow a name on the same line ("Name: John Doe Title: CFO").
_LABEL = r"(?!(?:Title|Position|Designation|Date|Email|E-mail|Phone|Tel|Telephone|Mobile|Address|Signature|By|Name)\b)"
_NEXT_NAME_PART = rf"[ \t]+{_LABEL}(?:{_INITIAL}|{_NAME_WORD})"
_FULL_NAME = rf"{_NAME_WORD}(?:{_NEXT_NAME_PART}){{1,3}}"
_HONORIFIC = r"(?:Mr|Ms|Mrs|Miss|Mx|Dr|Prof)\.?"

# Words that show a captured phrase is a team, company or role rather than a person.
_NOT_PERSON = frozenset(
    (
        "Account Accounts Agreement Bank Board Chief Company Corp Corporation Counsel Customer "
        "Department Desk Director Division Finance General GmbH Group Holdings Inc Legal Limited "
        "Ltd Manager Office Officer Operations Plc Procurement Purchaser Services Supplier Team "
        "Treasury"
    ).split()
)
_COMPANY_AFTER = re.compile(
    r"\s*,?\s*(?:Inc|LLC|Ltd|Limited|plc|PLC|GmbH|Corp|Corporation|LLP|S\.A|Pte)\b"
)

_NAME_CUE = re.compile(
    r"\b(?:(?<![Aa]ccount )(?<![Cc]ompany )(?<![Bb]ank )(?i:name)|(?i:attention|attn\.?|for the attention of|"
    r"contact(?: person)?|c/o|signed by|signatory))[ \t]*:?[ \t]*(?:/s/[ \t]*)?"
    rf"(?P<v>(?:{_HONORIFIC}[ \t]+)?{_FULL_NAME})"
)
_SIGNED_NAME = re.compile(rf"(?i:by)[ \t]*:[ \t]*/s/[ \t]*(?P<v>{_FULL_NAME})")
_HONORIFIC_NAME = re.compile(
    rf"\b(?P<v>{_HONORIFIC}[ \t]+{_NAME_WORD}(?:{_NEXT_NAME_PART}){{0,3}})"
)
_INDIVIDUAL = re.compile(rf"(?<![\w'’-])(?P<v>{_FULL_NAME})(?=,\s*(?:an individual|individually)\b)")

_STREET_SUFFIX = (
    r"(?:Street|St\.|St\b|Road|Rd\.|Avenue|Ave\.|Drive|Lane|Boulevard|Blvd\.|Parkway|Pkwy\.|Way|Place|"
    r"Plaza|Court|Circle|Crescent|Terrace|Square|Highway|Close|Gardens|Row|Walk|Mews|Park|Estate)"
)
_CAP_WORD = r"[A-Z][A-Za-z'.-]*"
_UNIT = r"(?:,?[ \t]*(?:Suite|Ste\.|Unit|Floor|Building|Bldg\.|Apt\.|#)[ \t]*[\w-]+)"
_US_CITY_STATE_ZIP = (  # a city of at most four words: bounded, so a line of capitalised words is read once
    r"(?<![A-Za-z])[A-Z][a-z]+(?:[ \t][A-Z][a-z]+){0,3},[ \t](?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|"
    r"N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])[ \t]\d{5}(?:-\d{4})?\b"
)
_UK_POSTCODE = r"\b[A-Z]{1,2}\d[A-Z\d]?[ \t]\d[A-Z]{2}\b"
_STREET = re.compile(
    rf"(?:(?:Unit|Suite|Flat)[ \t]+\w+,?[ \t]+)?\b\d{{1,5}}[A-Za-z]?,?[ \t]+(?:{_CAP_WORD}[ \t]+){{0,4}}"
    rf"{_STREET_SUFFIX}\b{_UNIT}*"
    rf"(?:,[ \t]*{_US_CITY_STATE_ZIP}|,[ \t]*[A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?[ \t]+{_UK_POSTCODE})?"
)
_GERMAN_STREET = re.compile(
    r"\b[A-ZÄÖÜ][a-zäöüß-]+(?:straße|strasse|str\.|weg|platz|allee|gasse|ring|damm)[ \t]+\d{1,4}[a-z]?"
    r"(?:,[ \t]*\d{5}[ \t]+[A-ZÄÖÜ][\wäöüß-]+)?"
)
_POSTAL = re.compile(rf"{_UK_POSTCODE}|\b{_US_CITY_STATE_ZIP}|\bSingapore[ \t]\d{{6}}\b")
_ADDRESS_CUE = re.compile(
    # "Address:", "whose address for notices is", "address for service shall be", "residing at" ...
    r"(?:(?i:address(?:[ \t]+for[ \t]+(?:notices?|service|correspondence|delivery))?)[ \t]*(?::|(?i:is|shall[ \t]+be)\b)"
    r"|(?i:registered office(?: is)?|principal (?:place of business|office)(?: is)?|"
    r"offices?|residing|resident|located|domiciled)[ \t]+at)[ \t]*"
    r"(?P<v>[^\n;()\"“]{4,200}?)"
    r"(?=[ \t]*\(|[ \t]*;|[ \t]*\n|[ \t]*$|,[ \t]*(?:VAT|EIN|Federal|Tax|company|registered|Unique|USt|acting)\b"
    r"|[ \t]+(?:and|as)\b"
    r"|\.[ \t]+[A-Z][\w'’-]*[ \t]+[a-z])"  # a sentence after it: "... 1016 GV Amsterdam. Choi shall"
)

_BANK_CUES = [
    re.compile(
        r"(?i:account[ \t]*(?:number|no\.?|#)|acct\.?[ \t]*(?:number|no\.?|#))[ \t]*:?[ \t]*(?P<v>\d[\d -]{4,24}\d)"
    ),
    re.compile(r"(?i:sort[ \t]*code)[ \t]*:?[ \t]*(?P<v>\d{2}[- ]?\d{2}[- ]?\d{2})\b"),
    re.compile(
        r"(?i:(?:ABA[ \t]*)?routing[ \t]*(?:transit[ \t]*)?(?:number|no\.?|#)?|ABA)[ \t]*:?[ \t]*(?P<v>\d{9})\b"
    ),
]
_TAX_VALUE = r"(?P<v>(?:[A-Z]{2}[ \t]?)?\d[\dA-Z -]{4,14}[\dA-Z])"
_TAX_CUES = [
    re.compile(
        r"(?:\b(?:EIN|TIN|UEN|ABN|GST|VAT)(?:[ \t]+(?:registration|identification|reg\.?))?(?:[ \t]+(?i:number|no\.?))?"
        r"|(?i:employer identification number|federal tax id(?:entification)?(?: number| no\.?)?|"
        r"tax id(?:entification)?(?: number| no\.?)?|taxpayer identification number|unique entity number|"
        r"ust-idnr\.?))[ \t]*:?[ \t]*" + _TAX_VALUE
    ),
    re.compile(r"\b(?P<v>\d{2}-\d{7})\b"),  # US EIN shape
    re.compile(
        r"\b(?P<v>(?:GB|DE|FR|NL|IE|BE|ES|IT|AT|DK|SE|FI|PL|PT|LU)[ \t]?\d{3}[ \t]?\d{3,4}[ \t]?\d{2,3})\b"
    ),
]
# A US social security number as written, with or without a cue: three, two and four digits with
# one separator throughout (Presidio's recognizer also drops well-known sample numbers, which are
# still somebody's number once written into a contract). Area 000 and group 00 are never issued.
_SSN = re.compile(r"(?<![\w-])(?!000)\d{3}(?P<sep>[- ])(?!00)\d{2}(?P=sep)(?!0000)\d{4}(?![\w-])")
_SSN_CUE = re.compile(
    r"(?i:social security (?:number|no\.?)|SSN)[ \t]*:?[ \t]*(?P<v>\d{3}-?\d{2}-?\d{4})\b"
)
# Card numbers and IBANs as they appear in extracted PDF text, where a line break may fall
# inside the number (Presidio's patterns expect spaces or dashes); both are checksum-validated.
_CARD = re.compile(
    r"(?<![\w-])\d{4}(?:[ \t\n-]\d{4}){2}[ \t\n-]\d{1,7}(?![\w-])|(?<![\w-])\d{13,19}(?![\w-])"
)
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ \t\n]?[A-Z0-9]{4}){2,7}(?:[ \t\n]?[A-Z0-9]{1,3})?\b")
_PHONE_PATTERNS = [
    # international: +CC, optional (0) or (area), then 2-5 digit groups
    re.compile(r"(?<![\w+])\+\d{1,3}(?:[ .-]?(?:\(0\)|\(\d{1,4}\)))?(?:[ .-]?\d{2,5}){2,5}\b"),
    # North American national: (206) 555-0142, 515-555-0163
    re.compile(r"(?<![\w-])(?:\(\d{3}\)[ .-]?|\b\d{3}[ .-])\d{3}[ .-]\d{4}\b"),
    # UK national: 07700 900418, 020 7946 0233
    re.compile(r"(?<![\w-])0\d{2,4}[ -]\d{3,4}(?:[ -]?\d{3,4})?\b"),
    # anything number-like after a telephone cue
    re.compile(
        r"(?i:\b(?:tel(?:ephone)?|phone|mobile|mob|cell|fax)\.?(?:[ \t]+(?:no\.?|number))?[ \t]*:?[ \t]*"
        r"(?:on[ \t]+)?)(?P<v>\+?[\d(][\d ()./-]{5,20}\d)"
    ),
]
# National formats are tried for these regions; "+CC" numbers are found whatever the region.
_PHONE_REGIONS = ("US", "GB")
_SINGLE_NEWLINE = re.compile(r"(?<=\S)([ \t]*)\n(?=[ \t]*\S)")


def _digits(value: str) -> int:
    return sum(ch.isdigit() for ch in value)


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _iban_ok(compact: str) -> bool:
    if not 15 <= len(compact) <= 34:
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1


def _phone_shaped(value: str) -> bool:
    """libphonenumber also accepts bare digit runs such as company numbers ("08814527") or
    standards ("IATF 16949"); in contracts a phone number is written with a "+" or separators
    (a bare one is still found through its "Tel:" cue)."""
    return _digits(value) >= 7 and (
        value.startswith(("+", "(")) or bool(re.search(r"\d[ .()/-]+\d", value))
    )


class LocalScrubber:
    """Offline scrubber: Presidio pattern recognizers plus contract-specific recognizers.

    The first `scrub` imports Presidio (about a second, once per process), so a run that never
    writes memory never pays for it; `scrub` itself takes a few milliseconds per 10 KB.
    `phone_regions` are the countries whose national phone formats (no "+CC") are recognised."""

    def __init__(self, *, phone_regions: Sequence[str] = _PHONE_REGIONS):
        self._phone_regions = tuple(phone_regions)
        # a run scrubs its whole contract twice (the task memory keeps, the people it names)
        self._scrub = lru_cache(maxsize=4)(self._scrub_uncached)

    @property
    def _presidio(self) -> list:
        return _presidio_recognizers(self._phone_regions)

    def scrub(self, text: str) -> ScrubResult:
        return self._scrub(text)

    def _scrub_uncached(self, text: str) -> ScrubResult:
        return apply_entities(text, self.find(text))

    def find(self, text: str) -> list[PiiEntity]:
        """Every candidate entity in `text` (possibly overlapping; `scrub` resolves overlaps)."""
        found: list[PiiEntity] = []
        for recognizer in self._presidio:
            for r in recognizer.analyze(text, recognizer.supported_entities, None):
                if r.entity_type == PHONE_NUMBER and not _phone_shaped(text[r.start : r.end]):
                    continue
                found.append(PiiEntity(r.entity_type, r.start, r.end, float(r.score), "presidio"))
        # Text extracted from PDFs breaks lines anywhere, also inside a cue or a value
        # ("Mr.\nTomasz Nowicki"), so most recognizers read a copy with single line breaks
        # joined (same length, same offsets). Address cues need the line ends; names are read
        # both ways so that "Attention: Jane Smith\nSenior Buyer" also learns "Jane Smith"
        # itself and scrubs its other occurrences.
        joined = _SINGLE_NEWLINE.sub(lambda m: m.group(1) + " ", text)
        found.extend(_line_entities(text))
        found.extend(_local_entities(joined))
        return found


def _line_entities(text: str) -> Iterator[PiiEntity]:
    """Recognizers that rely on line ends: cue-led addresses and names as written."""
    yield from _names(text)
    for m in _ADDRESS_CUE.finditer(text):
        value = m.group("v").strip().rstrip(",")
        if any(ch.isdigit() for ch in value):  # "offices at the Sites" is not an address
            start = m.start("v")
            yield PiiEntity(STREET_ADDRESS, start, start + len(value), 0.9)


def _local_entities(text: str) -> Iterator[PiiEntity]:
    """Recognizers that read across line breaks."""
    yield from _names(text)
    for pattern in (_STREET, _GERMAN_STREET, _POSTAL):
        for m in pattern.finditer(text):
            yield PiiEntity(STREET_ADDRESS, m.start(), m.end(), 0.7)
    for start, end in address_spans(text):  # street forms and postcodes of 27 countries
        yield PiiEntity(STREET_ADDRESS, start, end, 0.7)
    for pattern in _BANK_CUES:
        for m in pattern.finditer(text):
            yield PiiEntity(BANK_ACCOUNT, m.start("v"), m.end("v"), 0.9)
    for pattern in _TAX_CUES:
        for m in pattern.finditer(text):
            yield PiiEntity(TAX_ID, m.start("v"), m.end("v"), 0.8)
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 13 <= len(digits) <= 19 and _luhn_ok(digits):
            yield PiiEntity(CREDIT_CARD, m.start(), m.end(), 0.8)
    for m in _IBAN.finditer(text):
        if _iban_ok(re.sub(r"\s", "", m.group())):
            yield PiiEntity(IBAN_CODE, m.start(), m.end(), 0.9)
    for m in _SSN.finditer(text):
        yield PiiEntity(US_SSN, m.start(), m.end(), 0.7)
    for m in _SSN_CUE.finditer(text):
        yield PiiEntity(US_SSN, m.start("v"), m.end("v"), 0.9)
    for pattern in _PHONE_PATTERNS:
        for m in pattern.finditer(text):
            start, end = m.span("v") if "v" in pattern.groupindex else m.span()
            if 7 <= _digits(text[start:end]) <= 15:
                yield PiiEntity(PHONE_NUMBER, start, end, 0.6)


def _names(text: str) -> Iterator[PiiEntity]:
    """Names found by their cues or with none (`memory.pii.persons`: a known given name and a
    surname, a party described as a natural person, a name in a file name), then every other
    occurrence of the same names, and of their surnames alone ("Etxeberria shall deliver")."""
    names: set[str] = set()
    for start, end in person_spans(text):
        yield PiiEntity(PERSON, start, end, 0.7)
        names.add(text[start:end])
    for pattern in (_NAME_CUE, _SIGNED_NAME, _HONORIFIC_NAME, _INDIVIDUAL):
        for m in pattern.finditer(text):
            value = m.group("v")
            words = re.findall(r"[\w'’-]+", value)
            if any(w in _NOT_PERSON or w.capitalize() in _NOT_PERSON for w in words):
                continue
            if _COMPANY_AFTER.match(text, m.end("v")):
                continue
            yield PiiEntity(PERSON, m.start("v"), m.end("v"), 0.8)
            bare = re.sub(rf"^{_HONORIFIC}[ \t]+", "", value)
            if len(bare.split()) >= 2:
                names.add(bare)
    if names:
        yield from occurrences(text, names)


@lru_cache(maxsize=4)
def _presidio_recognizers(phone_regions: tuple[str, ...]) -> list:
    """Presidio's pattern recognizers, set up to run offline (no spaCy model, no downloads)."""
    import tldextract
    from presidio_analyzer.predefined_recognizers import (
        CreditCardRecognizer,
        EmailRecognizer,
        IbanRecognizer,
        PhoneRecognizer,
        UsSsnRecognizer,
    )

    # Presidio checks an email's domain with tldextract, which by default fetches the public
    # suffix list over the network; the snapshot shipped inside tldextract is enough.
    offline_tld = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

    class OfflineEmailRecognizer(EmailRecognizer):
        def validate_result(self, pattern_text: str) -> bool:
            return offline_tld(pattern_text).fqdn != ""

    return [
        OfflineEmailRecognizer(),
        IbanRecognizer(),
        CreditCardRecognizer(),
        PhoneRecognizer(supported_regions=phone_regions),
        UsSsnRecognizer(),
    ]
