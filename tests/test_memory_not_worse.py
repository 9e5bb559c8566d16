"""Memory never makes a review worse, and pays on the trap family (issue 19).

The trap family (sample_contracts/kestrel_supply_0*, sequences.json) is one supplier template
reviewed for five buyers, with clauses moved, added (a restraint on the buyer next to a clause
earlier contracts kept in the same article), removed and renumbered. The sequence is reviewed in
order on one data folder, each contract with memory on and off, exactly as `make bench` does.
"""

from __future__ import annotations

import pytest

from bench.improvement import FIRST_RUN_TARGET, TOKEN_TARGET, TOOL_TARGET, run_sequence
from bench.sequences import named_sequence


@pytest.fixture(scope="module")
def trap_family(tmp_path_factory) -> dict:
    return run_sequence(named_sequence("kestrel_supply"), tmp_path_factory.mktemp("trap-home"))


@pytest.fixture(scope="module")
def northwind(tmp_path_factory) -> dict:
    return run_sequence(named_sequence("northwind_msa", limit=3), tmp_path_factory.mktemp("northwind-home"))


def test_the_third_northwind_contract_costs_at_most_40_percent_of_the_calls_and_half_the_tokens(northwind):
    """assess_clause records a finding in the same call (record=true) and the extraction reads a
    digest of the run: the third similar contract pays what issue 19 asks, recall unchanged."""
    third = northwind["third_run"]
    assert third["recall_on"] >= third["recall_off"], third
    assert third["tool_ratio"] <= TOOL_TARGET, third
    assert third["token_ratio"] <= TOKEN_TARGET, third
    assert northwind["no_contract_worse"]


def _by_contract(result: dict, side: str, key: str) -> dict[str, float]:
    return {run["contract"]: run[side][key] for run in result["runs"]}


def test_memory_on_recall_never_drops_below_memory_off_on_any_trap_contract(trap_family):
    assert len(trap_family["runs"]) == 5
    assert trap_family["runs"][-1]["on"]["episodes_used"] >= 1  # memory really was used
    for key in ("recall", "section_accuracy"):
        on, off = _by_contract(trap_family, "on", key), _by_contract(trap_family, "off", key)
        worse = {name: (on[name], off[name]) for name in on if on[name] < off[name]}
        assert not worse, f"{key} with memory below memory off: {worse}"
    assert trap_family["no_contract_worse"]


def test_the_third_trap_contract_costs_at_most_40_percent_of_the_calls_and_half_the_tokens(trap_family):
    third = trap_family["third_run"]
    assert third["tool_ratio"] <= TOOL_TARGET, third
    assert third["token_ratio"] <= TOKEN_TARGET, third


@pytest.mark.parametrize("family", ["trap_family", "northwind"])
def test_a_first_review_with_memory_costs_no_more_than_without(family, request):
    """The extraction model writes only what needs judgement from a digest of the run; the key
    findings, tools and step count come from the run itself: a first review (memory empty of the
    template) costs at most 1.02x the tokens of the same review without memory."""
    first = request.getfixturevalue(family)["first_runs"][0]
    assert first["episodes_used"] == 0
    assert first["token_ratio"] <= FIRST_RUN_TARGET, first
