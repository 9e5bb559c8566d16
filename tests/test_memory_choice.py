"""Memory decides where to look first, never which provision is the finding (issue 29).

Where two provisions compete for one clause type (a sub-limit on an indemnity and the general cap
of liability), the provision recorded must be the contract's own choice, the same whichever
section a reviewer (or its memory) looked at first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.sequences import named_sequence
from tools.contract import Contract, load_contract
from tools.detection.parties import identify_parties
from tools.detection.review import provisions, review_clause
from tools.operations import assess_clause_data
from tools.playbook import load_playbook

SAMPLES = Path(__file__).resolve().parents[1] / "sample_contracts"
CONTRACTS = ("northwind_msa_04", "northwind_msa_01", "kestrel_supply_03", "skyline_saas_subscription",
             "ironbridge_manufacturing_supply", "tidewater_logistics_services")


def _contract(stem: str) -> Contract:
    contract = load_contract(SAMPLES / f"{stem}.txt", max_bytes=10 * 1024 * 1024)
    return Contract.model_validate({**contract.model_dump(), "parties": identify_parties(contract.text).as_dict()})


@pytest.mark.parametrize("stem", CONTRACTS)
def test_a_competing_provision_assessed_first_names_the_contracts_own_reading(stem):
    """Every section that holds a reading of a clause type but is not the one the whole-contract
    review chooses is answered with `elsewhere` or `other_side` naming a section to assess
    first: the place looked at (memory's, a search's) never settles the choice by itself."""
    contract, playbook = _contract(stem), load_playbook()
    silent = []
    for clause_type in playbook.clause_types:
        entry = playbook.entry(clause_type)
        chosen = review_clause(contract, entry)
        for reading in provisions(contract, entry):
            if reading["section"] == chosen.get("section"):
                continue
            answer = assess_clause_data(contract, playbook, clause_type, reading["section"])
            # a sub-section read as part of its numbered clause is answered with the clause's own reading
            # (the chosen one): recording that answer records the contract's choice
            if answer.get("found") and answer.get("section") != chosen.get("section") \
                    and not (answer.get("elsewhere") or answer.get("other_side")):
                silent.append((clause_type, reading["section"], chosen.get("section")))
    assert not silent, f"assessing these sections names no other, though the contract reads the clause elsewhere: {silent}"


def test_memory_records_the_same_provisions_as_a_review_without_it(reviewers):
    """Three Northwind contracts kept the general cap in 9.2; the fourth adds a supplier's
    indemnity sub-limit in 9.1 that the contract's own reading ranks first. With memory the
    liability cap was recorded at 9.2, without at 9.1: memory chose the provision. Now every
    clause type is recorded at the same section with the same verdict on and off."""
    with_memory, without = reviewers
    paths = named_sequence("northwind_msa").paths
    for path in paths[:-1]:
        with_memory.review_path(path)
    on, off = with_memory.review_path(paths[-1]), without.review_path(paths[-1])
    assert on["memory"]["episodes"], "memory was used"

    def chosen(report: dict) -> dict[str, tuple]:
        return {f["clause_type"]: (f["section"], f["verdict"]) for f in report["findings"]}

    differ = {t: (chosen(off)[t], chosen(on)[t]) for t in chosen(off) if chosen(off)[t] != chosen(on).get(t)}
    assert not differ, f"memory changed the provision recorded (off, on): {differ}"
    assert on["usage"]["tool_calls"] <= 0.6 * off["usage"]["tool_calls"], "memory still pays"
