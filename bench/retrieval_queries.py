"""Generated queries for the retrieval benchmark: answerable ones and ones with no right answer.

Written by rule, before any result was seen, and never tuned to one: every query comes from a
template of its kind filled from the episode corpus of `retrieval_set` (answerable: the slot
values of one episode, an amount written another way than stored) or from pools of values that
no episode holds (no answer: a party, subject, clause type, section or amount absent from the
whole corpus; `absent_values_check` proves it). The same templates serve both, so a no-answer
query reads exactly like an answerable one. Kinds: party, subject, clause (clause type and
section) and amount.

`split(queries)` halves every (kind, answerable) stratum by a hash of the query text: the tuning
half is what a developer may look at while changing retrieval; the held-back half is what the
targets are judged on.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass

from bench.retrieval_set import EPISODES, QUERIES

KINDS = ("party", "subject", "clause", "amount")
DISTRACTORS = 300  # generated distractor episodes the benchmark stores beside the set (bench.retrieval)
DISTRACTOR_TENANT = 42  # their `episode_spec` tenant index
TEMPLATES: dict[str, list[str]] = {
    "party": ["{party} sent a revised agreement for review", "Please check the latest paperwork from {party}",
              "What did we find the last time we reviewed {party}?", "Renewal terms proposed by {party}"],
    "subject": ["We need to check a new {subject}", "Review another {subject} for a second site",
                "A {subject} is up for renewal", "Assess the draft {subject} received today"],
    "clause": ["the {clause} clause in section {section}", "which review flagged {clause} at {section}?",
               "{clause} issue under clause {section}", "what did we decide on {clause} in {section}"],
    "amount": ["a contract worth {amount}", "the deal with a value of {amount}", "{amount} in fees",
               "supplier paid {amount}"],
}
# Values no episode holds (checked by `absent_values_check`), fixed before any result was seen.
ABSENT_PARTIES = ["Zephyrine Dynamics", "Quillfeather Holdings", "Brannock Industrial", "Ostrava Biotech",
                  "Pellucid Mining", "Tarragon Retail", "Vostok Aerospace", "Kestrel Pharmaceuticals",
                  "Umberto Ceramics", "Saffron Hospitality", "Ingleby Brewing", "Corvina Shipping",
                  "Marchetti Furniture", "Halden Automotive", "Bexley Dental", "Novak Printing Presses",
                  "Rutherford Glassworks", "Ashdown Laboratories", "Fairbairn Plumbing", "Delacroix Perfumes",
                  "Whitcombe Aviation", "Estrada Fisheries", "Lindholm Timber", "Okonkwo Cement"]
ABSENT_SUBJECTS = ["dental benefits administration contract", "aircraft ground handling agreement",
                   "vending machine concession agreement", "pest control services contract",
                   "courier cargo bike pilot", "museum exhibit loan agreement", "crop spraying services contract",
                   "stadium naming sponsorship agreement", "veterinary clinic vaccine agreement",
                   "helicopter charter agreement", "greenhouse irrigation retrofit contract",
                   "hotel laundry outsourcing agreement", "library book digitisation contract",
                   "ferry ticketing kiosk agreement", "quarantine kennel services agreement",
                   "ski slope grooming contract", "cinema projector refurbishment contract",
                   "wedding photography services contract", "beehive pollination services agreement",
                   "tattoo ink procurement agreement", "railway signalling upgrade contract",
                   "orchestra touring agreement", "snow clearing services contract", "yacht mooring agreement"]
ABSENT_CLAUSES = ["force majeure", "escrow", "most favoured customer", "dispute escalation", "benchmarking",
                  "anti-bribery", "subcontracting", "publicity"]
ABSENT_SECTIONS = [f"{major}.{minor}" for major in range(52, 64) for minor in (3, 7)]
ABSENT_AMOUNTS = [(value, currency) for value, currency in [
    (1_350_000, "USD"), (585_000, "EUR"), (47_500, "GBP"), (2_250_000, "USD"), (133_000, "EUR"),
    (8_800_000, "USD"), (71_000, "GBP"), (415_000, "USD"), (3_900_000, "EUR"), (26_500, "USD"),
    (990_000, "GBP"), (612_000, "USD"), (4_450_000, "USD"), (38_200, "EUR"), (157_000, "GBP"),
    (6_600_000, "EUR"), (84_300, "USD"), (1_725_000, "GBP"), (229_000, "EUR"), (53_700, "USD"),
    (7_150_000, "USD"), (318_000, "GBP"), (12_400, "EUR"), (2_880_000, "USD")]]
_CURRENCY_WORDS = {"USD": "dollars", "EUR": "euros", "GBP": "pounds", "JPY": "yen"}
_CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}
_PARTY_AND_SUBJECT = re.compile(r"Review the ((?:[A-Z][a-z][\w-]*\s?)+) (.+?)(?:;|$| with )")
_MONEY = re.compile(r"\b(USD|EUR|GBP|JPY) (\d[\d,]*)")
_FINDING = re.compile(r"^(\w+) in section (\d+\.\d+)")


@dataclass(frozen=True)
class Query:
    text: str
    expected: str | None  # the run id of the right episode; None = no right answer
    kind: str

    @property
    def answerable(self) -> bool:
        return self.expected is not None


@dataclass(frozen=True)
class Fields:
    party: str
    subject: str
    money: tuple[int, str] | None
    clauses: list[tuple[str, str]]


def clause_lines(findings: list[str]) -> list[tuple[str, str]]:
    """(clause type in words, section) of each finding line that names a section."""
    return [(m.group(1).replace("_", " "), m.group(2)) for m in map(_FINDING.match, findings) if m]


def fields(summary: str, findings: list[str]) -> Fields:
    match = _PARTY_AND_SUBJECT.match(summary)
    if match is None:
        raise ValueError(f"cannot read party and subject from {summary!r}")
    money = _MONEY.search(summary)
    clauses = clause_lines(findings)
    return Fields(match.group(1).strip(), match.group(2).strip(),
                  (int(money.group(2).replace(",", "")), money.group(1)) if money else None, clauses)


def written_another_way(value: int, currency: str, variant: int) -> str:
    """An amount as a person might type it, never as the corpus stores it ("USD 1,500,000")."""
    if value >= 1_000_000 and variant % 2 == 0:
        return f"{value / 1_000_000:g} million {_CURRENCY_WORDS[currency]}"
    if value >= 1_000_000:
        return f"{_CURRENCY_SYMBOLS[currency]}{value / 1_000_000:g}M"
    if value >= 1_000 and variant % 2 == 0:
        return f"{_CURRENCY_SYMBOLS[currency]}{value / 1_000:g}k"
    if value >= 1_000:
        return f"{value / 1_000:g}k {_CURRENCY_WORDS[currency]}"
    return f"{value} {_CURRENCY_WORDS[currency]}"


def generated() -> list[Query]:
    """One answerable query per episode and kind it has a value for, and 24 no-answer ones per kind."""
    out: list[Query] = []
    shared_lines = {pair for text in memory_texts()[len(EPISODES):] for pair in clause_lines(text.splitlines()[1:])}
    for n, (run_id, (summary, findings)) in enumerate(EPISODES.items()):
        f = fields(summary, findings)
        pick = TEMPLATES
        out.append(Query(pick["party"][n % 4].format(party=f.party), run_id, "party"))
        out.append(Query(pick["subject"][n % 4].format(subject=f.subject), run_id, "subject"))
        # a clause line some other stored episode holds word for word has no single right answer
        unique = [pair for pair in f.clauses if pair not in shared_lines] or f.clauses
        clause, section = unique[n % len(unique)]
        out.append(Query(pick["clause"][n % 4].format(clause=clause, section=section), run_id, "clause"))
        if f.money is not None:
            out.append(Query(pick["amount"][n % 4].format(amount=written_another_way(*f.money, n)), run_id, "amount"))
    for n in range(24):
        out.append(Query(TEMPLATES["party"][n % 4].format(party=ABSENT_PARTIES[n]), None, "party"))
        out.append(Query(TEMPLATES["subject"][n % 4].format(subject=ABSENT_SUBJECTS[n]), None, "subject"))
        out.append(Query(TEMPLATES["clause"][n % 4].format(clause=ABSENT_CLAUSES[n % len(ABSENT_CLAUSES)],
                                                            section=ABSENT_SECTIONS[n]), None, "clause"))
        out.append(Query(TEMPLATES["amount"][n % 4].format(amount=written_another_way(*ABSENT_AMOUNTS[n], n)),
                         None, "amount"))
    return out


def written() -> list[Query]:
    """The 128 hand-written answerable queries of `retrieval_set` (kind "paraphrase" is a subject)."""
    return [Query(text, expected, "subject" if kind == "paraphrase" else kind) for text, expected, kind in QUERIES]


def all_queries() -> list[Query]:
    return written() + generated()


def split(queries: list[Query]) -> tuple[list[Query], list[Query]]:
    """(tuning, held back): each (kind, answerable) stratum halved by a hash of the text."""
    tuning: list[Query] = []
    held: list[Query] = []
    strata: dict[tuple[str, bool], list[Query]] = {}
    for query in queries:
        strata.setdefault((query.kind, query.answerable), []).append(query)
    for stratum in strata.values():
        ordered = sorted(stratum, key=lambda q: hashlib.sha256(q.text.encode()).hexdigest())
        tuning += ordered[0::2]
        held += ordered[1::2]
    return tuning, held


def memory_texts(distractors: int = DISTRACTORS) -> list[str]:
    """The embedded text of every episode the benchmark stores: the set's and the distractors'."""
    from bench.memory_data import episode_spec

    texts = ["\n".join([summary, *findings]) for summary, findings in EPISODES.values()]
    for i in range(distractors):
        spec = episode_spec(i, DISTRACTOR_TENANT)
        texts.append("\n".join([spec.summary(), *spec.findings]))
    return texts


def absent_values_check(distractors: int = DISTRACTORS) -> list[str]:
    """Problems with the no-answer pools, checked against everything the benchmark stores: a
    value may share no identifier and no word with that memory, except words at least a quarter
    of the stored texts hold ("review", "contract", "section": no subject of their own)."""
    from memory.retrieval import STOPWORDS, identifiers, words

    texts = memory_texts(distractors)
    held = Counter(word for text in texts for word in set(words(text)))
    generic = {word for word, count in held.items() if count >= len(texts) / 4}
    corpus_idents = set().union(*(identifiers(text) for text in texts))
    problems = []
    for value in [*ABSENT_PARTIES, *ABSENT_SUBJECTS, *ABSENT_CLAUSES]:
        shared = (set(words(value)) - generic - STOPWORDS) & held.keys()
        if shared:
            problems.append(f"{value!r} shares {sorted(shared)} with the stored episodes")
    for section in ABSENT_SECTIONS:
        if section.replace(".", "p") in corpus_idents:
            problems.append(f"section {section} is in the stored episodes")
    for value, currency in ABSENT_AMOUNTS:
        if identifiers(f"{currency} {value:,}") & corpus_idents:
            problems.append(f"{currency} {value:,} is in the stored episodes")
    return problems
