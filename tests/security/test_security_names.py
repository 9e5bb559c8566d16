"""Personal names with no cue never reach memory: a natural person as a contracting party, a name
in a section title or a heading, a name in the file name. Reviewed through the real write path
(episodes, confirmed facts and a proposed procedure are written), then every byte of the SQLite
memory file is searched for every part of every planted name. Company and place names stay:
memory that loses them is useless."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from memory.pii import scrub
from memory.pii.persons import given_names
from tests.conftest import SAMPLES
from tests.security.support import sqlite_raw_bytes
from tests.security.test_security_hostile import _reviewer, _stored

# The same person contracts in all three (so whatever memory learns about the party is confirmed
# three times), written three ways: described as an individual, as a sole trader, and with nothing
# but a defined term.
PARTY = "Marisol Etxeberria"
PARTY_FORMS = [
    "{name}, an individual whose address is at",
    "{name}, a sole trader whose address is at",
    "{name}, whose address is at",
]
TITLE_PEOPLE = ["Tomasz Wierzbicki", "Ingrid Solberg", "Deepak Chaudhary"]  # in a numbered section title
HEADING_PEOPLE = ["Aoife Brennan", "Kwame Mensah", "Lucía Fernández"]  # in an unnumbered heading
FILE_PEOPLE = [("ravi", "menon"), ("helga", "brandt"), ("emeka", "okafor")]  # in the file name
# (a name whose given name the scrubber does not know is missed: docs/SECURITY.md gives the recall)


def _contract(folder, i: int):
    text = (SAMPLES / "northwind_msa_01.txt").read_text()
    old = ("NORTHWIND COMPONENTS LTD, a company incorporated and registered in England and Wales with company "
           "number 08814527, whose registered office is at")
    party = PARTY.upper() if i == 2 else PARTY
    text = text.replace(old, PARTY_FORMS[i].format(name=party), 1)
    text = text.replace("NORTHWIND COMPONENTS LTD", party).replace("Northwind Components Ltd", PARTY)
    text = text.replace("9.2 Limitation of Liability\n", f"9.2 Limitation of Liability of {TITLE_PEOPLE[i]}\n", 1)
    text = text.replace("Part B: Lead times\n", f"Part B: Lead times agreed with {HEADING_PEOPLE[i]}\n", 1)
    first, last = FILE_PEOPLE[i]
    path = folder / f"msa_{first}_{last}_{2024 + i}.txt"
    path.write_text(text + f"\n\nCopy reference: NM-{i + 1:04d}\n")
    return path


def _name_parts() -> list[str]:
    people = [PARTY, *TITLE_PEOPLE, *HEADING_PEOPLE, *(" ".join(p) for p in FILE_PEOPLE)]
    return sorted({part.lower() for person in people for part in person.split()})


def test_names_without_a_cue_never_reach_memory(settings, tmp_path):
    reviewer = _reviewer(settings)
    for i in range(3):
        assert reviewer.review_path(_contract(tmp_path, i), thread_id=f"names-{i}")["outcome"] == "COMPLETED"
    facts, procedures, episodes = _stored(settings)
    # copies of one template with no company counterparty confirm no fact (memory.semantic's gate)
    assert len(episodes) == 3 and procedures, "the episodic and procedural tiers were written"
    stored = sqlite_raw_bytes(settings.sqlite_path).lower()
    found = [part for part in _name_parts() if part.encode() in stored]
    assert found == []
    # what memory needs is kept: what the run derived (the kind of contract, the section headings
    # of its findings), never contract text such as its reference (issue 31)
    for kept in (b"master supply agreement", b"invoicing and payment", b"governing law"):
        assert kept in stored, kept
    assert b"nwc-msa-2025-017" not in stored and b"nm-0001" not in stored



ROOT = Path(__file__).resolve().parents[2]


def test_the_given_name_list_is_generated_and_up_to_date():
    """memory/pii/given_names.txt is what scripts/given_names.py makes of Faker's person data."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "given_names.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert len(given_names()) > 15_000  # some 80 locales' lists, not a hand-picked few


@pytest.mark.parametrize(("text", "name"), [
    ('between Acme Widgets Inc. ("Customer") and Siobhan Gallagher ("Consultant")', "Siobhan Gallagher"),
    ('BETWEEN: ACME WIDGETS INC. ("Customer") AND MATEUSZ KOWALCZYK ("Contractor")', "MATEUSZ KOWALCZYK"),
    ("Annex 4 – Delivery contacts: Yusuf Demir", "Yusuf Demir"),
    ("12.4 Payments to Ngozi A. Eze\n", "Ngozi A. Eze"),
    ("Deliverables shall be approved in writing by Henrik Dahl before invoicing.", "Henrik Dahl"),
    ("Hrvoje Babić, a sole trader trading as Babić Joinery", "Hrvoje Babić"),
    ("Zbigniew Quarrington-Hale, an individual", "Zbigniew Quarrington-Hale"),  # no known given name: the cue
    ("supply_agreement_camille_roux_v2.pdf", "camille_roux"),
    ("Camille-Roux.docx", "Camille-Roux"),
])
def test_a_name_without_a_cue_is_scrubbed_and_its_other_mentions_too(text, name):
    scrubbed = scrub(f"{text}\nLater: {name} shall deliver.").text
    for part in re.split(r"[\s_.-]+", name):
        if len(part) > 2:
            assert part.lower() not in scrubbed.lower(), scrubbed


@pytest.mark.parametrize("text", [
    "Morgan Stanley & Co. LLC shall act as agent.",  # a company form after the pair
    "Ingram Micro Inc. (\"Distributor\"). INGRAM MICRO shall purchase.",  # words of a company the text names
    "the Consumer Price Index for All Urban Consumers",  # part of a longer proper noun
    "the Unique Entity Number 201734512K",
    '"Sites" means the hotels listed; the London Sites are listed in Schedule 1.',  # a defined term
    "Victoria Street, Grant of Licence, May Terminate, Will Deliver",  # a street, and words it writes lower case
    "sole_remedy: missing (none)",  # a clause id is no file name
    "the grant of a licence may be made. Grant Thornton reviewed; Will Smith may attend.",
])
def test_company_place_and_clause_words_are_kept(text):
    assert "<PERSON>" not in scrub(text).text.replace("Will Smith", "")


def _extractor_naming_the_party():
    """An extraction model that writes the person's name, with no cue, into what it proposes: a
    finding, a fact (with full confidence) and a procedure step."""
    import json

    from agent.offline.scripted import ScriptedChatModel

    surname = PARTY.split()[-1]
    answer = {
        "task_summary": f"Review of the supply agreement with {PARTY}", "outcome": "COMPLETED",
        "key_findings": [f"liability_cap in section 9.2: deviation (high), {surname} caps at the fees"],
        "approach": f"Read {surname}'s limitation of liability first", "tools_used": [], "step_count": 1,
        "reusable_patterns": [], "procedure": {"title": f"Reviewing {PARTY}", "steps": [f"Ask {surname} for the cap."]},
        "fact_candidates": [{"text": f"{PARTY} contracts cap liability at the fees paid", "domain": "supplier_contracts",
                             "confidence": 1.0}],
    }
    return ScriptedChatModel(responses=[json.dumps(answer)], repeat_last=True)


def test_a_model_that_names_the_person_party_stores_no_name(settings, tmp_path):
    """The model's fact names the party: it is refused (a fact naming a party or a person is never
    learned), and no other tier keeps the name."""
    reviewer = _reviewer(settings, extraction_model=_extractor_naming_the_party())
    for i in range(3):
        reviewer.review_path(_contract(tmp_path, i), thread_id=f"named-{i}")
    facts, procedures, episodes = _stored(settings)
    assert facts == [], "a fact built from a party's name is refused"
    for stored in (*facts, *procedures, *episodes):
        assert not any(part in stored.lower() for part in PARTY.lower().split()), stored
    assert not any(part.encode() in sqlite_raw_bytes(settings.sqlite_path).lower() for part in PARTY.lower().split())
