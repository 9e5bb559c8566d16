"""Measure how the offline scrubber finds personal names that have no cue (docs/SECURITY.md).

    python scripts/names_eval.py                       # the shipped recognizers (memory.pii.persons)
    python scripts/names_eval.py --spacy MODEL_DIR     # also a spaCy NER model, alone and gated by
                                                       # the given-name list (e.g. the en-core-web-sm
                                                       # 3.8 re-upload on PyPI, installed by hand)

Recall: 40 people of many origins, each planted in 7 positions (a party described as an
individual, a party with only a defined term, a party in capitals, an unnumbered heading, a
numbered section title, running prose, a file name); a plant counts when no part of the name
(3+ letters) is left. False positives: every span found in the CUAD contracts (../shared/cuad)
and sample_contracts, listed so a reader can tell people from company, place and clause words,
and the parties' company names a span touched.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PEOPLE = [
    "Marisol Etxeberria", "Tomasz Wierzbicki", "Ingrid Solberg", "Deepak Chaudhary", "Aoife Brennan",
    "Kwame Mensah", "Lucía Fernández", "Ravi Menon", "Helga Brandt", "Chidi Okafor", "Jane Q. Doughty",
    "Priya Raman", "John Smith", "Wei Zhang", "Yuki Tanaka", "Olga Petrova", "Ahmed Hassan", "Fatima Al-Sayed",
    "Carlos Mendoza", "Sophie Laurent", "Giovanni Rossi", "Anna Kowalska", "Liam O'Connor", "Siobhan McCarthy",
    "Emeka Nwosu", "Hiroshi Sato", "Mei Lin", "Rajesh Kumar", "Ana Souza", "Pieter de Vries", "Lars Johansson",
    "Elena Popescu", "Mohammed Rahman", "Grace Achieng", "Daniel Cohen", "Sarah Goldberg", "Michael Brown",
    "Jennifer Wilson", "Robert Taylor", "Maria Garcia",
]
POSITIONS = [
    ("party, an individual", 'This Agreement is made between Acme Widgets Inc., a Delaware corporation ("Customer"), '
                             'and {n}, an individual ("Consultant").'),
    ("party, defined term only", 'This Agreement is made between Acme Widgets Inc. ("Customer") and {n} ("Consultant").'),
    ("party, in capitals", 'BETWEEN: ACME WIDGETS INC. ("Customer") AND {N} ("Contractor")'),
    ("heading", "Schedule 3 – {n}\nThe following delivery points apply."),
    ("section title", "9.2 Liability of {n}\nThe Contractor's aggregate liability shall not exceed the Fees."),
    ("running prose", "All Deliverables shall be approved in writing by {n} before any invoice is issued."),
    ("file name", "{f}"),
]


def shipped(text: str) -> list[tuple[int, int]]:
    from memory.pii.persons import person_spans

    return list(person_spans(text))


def spacy_finder(model_dir: str, gated: bool):
    import spacy

    from memory.pii.persons import given_names

    nlp = spacy.load(model_dir, exclude=["lemmatizer"])
    nlp.max_length = 5_000_000
    given = given_names()

    def find(text: str) -> list[tuple[int, int]]:
        return [(e.start_char, e.end_char) for e in nlp(text).ents if e.label_ == "PERSON"
                and (not gated or e.text.split()[0].lower().strip(".,") in given)]

    return find


def recall(find) -> None:
    hits: collections.Counter[str] = collections.Counter()
    missed: dict[str, list[str]] = collections.defaultdict(list)
    for name in PEOPLE:
        file_name = "msa_" + "_".join(w.strip(".").lower() for w in name.split()) + "_2024.pdf"
        for key, template in POSITIONS:
            text = template.format(n=name, N=name.upper(), f=file_name)
            for start, end in sorted(find(text), reverse=True):
                text = text[:start] + "<PERSON>" + text[end:]
            parts = [p for p in re.split(r"[\s_.]+", name.lower()) if len(p) > 2]
            if any(p in text.lower() for p in parts):
                missed[key].append(name)
            else:
                hits[key] += 1
    total = len(PEOPLE) * len(POSITIONS)
    print(f"recall {sum(hits.values())}/{total} ({sum(hits.values()) / total:.0%})")
    for key, _ in POSITIONS:
        print(f"  {key:26} {hits[key]:2}/{len(PEOPLE)}  missed: {', '.join(missed[key]) or '-'}")


def false_positives(find) -> None:
    from tools.detection.parties import identify_parties

    files = sorted((ROOT.parent / "shared" / "cuad" / "contracts").glob("*.txt"))
    files = (files or sorted(Path("../shared/cuad/contracts").glob("*.txt"))) + sorted((ROOT / "sample_contracts").glob("*.txt"))
    spans: collections.Counter[str] = collections.Counter()
    touched: list[str] = []
    chars, seconds = 0, 0.0
    for path in files:
        text = path.read_text(errors="replace")
        chars += len(text)
        started = time.perf_counter()
        found = [" ".join(text[s:e].split()) for s, e in find(text)]
        seconds += time.perf_counter() - started
        spans.update(found)
        parties = identify_parties(text)
        for party in (parties.buyer, parties.supplier):
            if party and any(f.lower() in party.name.lower() or party.name.lower() in f.lower() for f in found):
                touched.append(f"{party.name} ({path.stem[:30]})")
    print(f"{len(files)} contracts, {chars:,} characters, {seconds:.1f} s: {sum(spans.values())} spans, "
          f"{len(spans)} distinct")
    print("  party names touched:", "; ".join(touched) or "none")
    print("  distinct spans, most frequent first:", "; ".join(f"{s} ({n})" for s, n in spans.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spacy", metavar="MODEL_DIR", help="also measure a spaCy NER model from this folder")
    args = parser.parse_args()
    finders = [("given names + structure (shipped)", shipped)]
    if args.spacy:
        started = time.perf_counter()
        finders.append(("spaCy NER, PERSON", spacy_finder(args.spacy, gated=False)))
        print(f"spaCy import and model load: {time.perf_counter() - started:.2f} s")
        finders.append(("spaCy NER, PERSON with a known given name", spacy_finder(args.spacy, gated=True)))
    for title, find in finders:
        print(f"\n== {title}")
        recall(find)
        false_positives(find)


if __name__ == "__main__":
    main()
