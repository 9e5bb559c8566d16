"""Names in every form, addresses of many countries: once a person is found, no part of their name
is left anywhere in the run, whatever its form; and an address is scrubbed as its country writes it.

The people and addresses (data/pii_people.json) were written for this: 40 people of 30-odd
origins (a Korean hyphenated given name, initialled names, persons known by one name, particles,
two surnames, Cyrillic, surname-first orders) and 27 addresses of 26 countries. Each person is
planted the way a run meets them (scripts/pii_eval.py): a party "an individual residing at" an
address, then by surname alone, given name alone, possessive, initials, in a file name and in
another spelling; end to end, three such contracts reviewed with memory leave no byte of any form
in the memory file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory.pii import default_scrubber, scrub_artifacts
from memory.pii.persons import name_forms
from memory.records import FactCandidate, ProcedureProposal, RunArtifacts
from scripts.pii_eval import _left, planted_contract
from tests.conftest import SAMPLES
from tests.security.support import sqlite_raw_bytes
from tests.security.test_security_hostile import _reviewer, _stored

DATA = json.loads((Path(__file__).parent / "data" / "pii_people.json").read_text(encoding="utf-8"))
PEOPLE, ADDRESSES = DATA["people"], DATA["addresses"]


@pytest.mark.parametrize("index", range(len(PEOPLE)), ids=[p["name"] for p in PEOPLE])
def test_no_form_of_a_found_persons_name_is_left(index):
    text, forms = planted_contract(PEOPLE[index], ADDRESSES[index % len(ADDRESSES)])
    scrubbed = default_scrubber().scrub(text).text
    left = {form: v for form, values in forms.items() for v in values
            if _left(scrubbed, v if form != "possessive" else v[:-2])}
    assert not left, (left, scrubbed)
    assert "Acme Widgets Inc." in scrubbed and "deliver the Goods" in scrubbed  # the rest stays


@pytest.mark.parametrize("address", ADDRESSES, ids=[f"{a['country']}-{i}" for i, a in enumerate(ADDRESSES)])
def test_an_address_is_scrubbed_as_its_country_writes_it(address):
    """Without a cue: a delivery point in a schedule."""
    text = f"Schedule 2. Delivery point: {address['address']}. Deliveries on Mondays."
    scrubbed = default_scrubber().scrub(text).text
    assert not _left(scrubbed.replace("Delivery point", "").replace("Deliveries on Mondays", ""),
                     address["address"]), scrubbed
    assert "Deliveries on Mondays" in scrubbed


def test_the_forms_of_a_name():
    sequences, words = name_forms("Hyun-woo Park")
    assert {"Hyun-woo Park", "Park Hyun-woo", "H. Park", "Hyunwoo Park"} <= sequences
    assert {"Hyun-woo", "Hyunwoo", "Park"} <= words
    _, words = name_forms("Дмитрий Соколов")
    assert {"Sokolov", "Dmitriy", "Соколов"} <= words
    _, words = name_forms("Jürgen Weißmüller")
    assert {"Jurgen", "Juergen", "Weissmuller", "Weissmueller"} <= words
    _, words = name_forms("Ludwig van der Berg")
    assert "van der Berg" in words and "Berg" in words


def test_every_stored_field_is_scrubbed_of_the_runs_people_in_every_form():
    """A field alone has no context ("Smithson's cap"): the run's people are scrubbed from every field."""
    artifacts = RunArtifacts(
        task_summary="Review of supply_agreement_van_der_berg_2025.txt", key_findings=[
            "liability_cap in section 9.2 \"Berg's cap\": deviation (high)", "Notices to J. R. Smithson",
            "Park Hyun-woo signs; Hyunwoo confirms"],
        approach="Asked SMITHSON, J.R. first", fact_candidates=[FactCandidate(text="Van der Berg caps at 1x", confidence=1)],
        procedure=ProcedureProposal(title="Reviewing Hyun-woo's contracts", steps=["Call Smithson"]))
    clean = scrub_artifacts(artifacts, names=["Ludwig van der Berg", "James Robert Smithson", "Hyun-woo Park"])
    stored = clean.model_dump_json().lower()
    for part in ("berg", "smithson", "hyun", "park", "j. r."):
        assert part not in stored, (part, stored)


def _contract(folder: Path, i: int) -> Path:
    """A sample contract whose supplier is a person (PEOPLE[i]), named in every form, with a file
    name carrying them."""
    person = PEOPLE[[0, 2, 6][i]]
    text, _ = planted_contract(person, ADDRESSES[i])
    base = (SAMPLES / "northwind_msa_01.txt").read_text()
    body = base.replace("NORTHWIND COMPONENTS LTD", person["name"]).replace("Northwind Components Ltd", person["name"])
    surname = person.get("surname") or person["name"].split()[-1]
    ident = text.split("supply_agreement_", 1)[1].split("_2025", 1)[0]
    path = folder / f"supply_agreement_{ident}_{2025 + i}.txt"
    path.write_text(text + "\n\n" + body + f"\n\n{surname} shall sign every Purchase Order.\nCopy reference: PF-{i}\n")
    return path


def test_people_in_every_form_never_reach_the_memory_file(settings, tmp_path):
    reviewer = _reviewer(settings)
    planted = []
    for i in range(3):
        path = _contract(tmp_path, i)
        planted.append(path)
        assert reviewer.review_path(path, thread_id=f"forms-{i}")["outcome"] == "COMPLETED"
    facts, procedures, episodes = _stored(settings)
    assert len(episodes) == 3
    stored = sqlite_raw_bytes(settings.sqlite_path).lower()
    for i in range(3):
        person = PEOPLE[[0, 2, 6][i]]
        _, forms = planted_contract(person, ADDRESSES[i])
        for form, values in forms.items():
            for value in values:
                for part in value.replace("'s", "").split():
                    if len(part.strip(".,")) >= 3 and not part.isdigit():
                        assert part.strip(".,").lower().encode() not in stored, (form, part)


@pytest.mark.parametrize(("text", "gone"), [
    ("Between Acme Widgets Inc. and Min-jun Choi, an individual residing at Prinsengracht 263, 1016 GV Amsterdam. "
     "Choi shall deliver the Goods.", ["Min-jun", "Choi", "Prinsengracht", "1016"]),
    ("Signed by K. L. Oyelaran. Oyelaran's notice address: Flat No. 12B, Sector 21, Noida 201301. Deliver the Goods.",
     ["Oyelaran", "12B", "201301"]),
    ("Supplier: Siobhán Ní Bhriain, a sole trader, of 14 Rue du Bac, 75007 Paris. Ní Bhriain's fees fall due.",
     ["Siobh", "Bhriain", "Ní", "Bac", "75007"]),
    ("Contact Ngozi Adeyemi-Bello at Carrera 7 # 71-21, Bogotá. Adeyemi-Bello will deliver the Goods.",
     ["Ngozi", "Adeyemi", "71-21"]),
    # an address whose country has no pattern, led by the notices clause's own words (issue 31)
    ("Supplier is Tevita Fifita, whose address for notices is Taufa'ahau Road 118, Kolofonua, Nuku'alofa.\n\n"
     "Fifita shall deliver the Goods.", ["Taufa", "118", "Kolofonua"]),
    ("The Contractor's address for service shall be Plot 44, Kampala Road, Nakasero, Kampala; deliver the Goods.",
     ["Plot 44", "Kampala Road", "Nakasero"]),
    ("Notices to Juan Pablo dela Paz. Address: Calle Real 77, Barangay Poblacion, Vigan City 2700. Goods follow.",
     ["Juan", "Calle Real", "Poblacion", "2700"]),
])
def test_people_and_addresses_outside_the_set(text, gone):
    """Forms the data set does not hold: a cue-led address ending at the sentence, two initials
    before an unknown surname, an Irish particle, a Colombian street."""
    scrubbed = default_scrubber().scrub(text).text
    assert not [g for g in gone if g in scrubbed], scrubbed
    assert "Goods" in scrubbed or "fees fall due" in scrubbed


def test_dotted_abbreviations_are_not_initials():
    text = "Payments in U.S. Dollars to P.O. Box 270, delivered F.O.B. Atlanta, per the U.S. Government."
    assert "<PERSON>" not in default_scrubber().scrub(text).text
