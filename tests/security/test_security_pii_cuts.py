"""Personal data across every cut: the opening a reviewer reads is cut at several lengths, and
memory keeps none of it (issue 31: only what the run derived), so a value a cut falls inside is
never stored, not even in part; and values need no cue word to be found."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest
from langchain_core.messages import HumanMessage

from agent.memory_agent import ContractMemoryAgent
from agent.offline.extractor import extract_artifacts
from agent.prompts import OPENING_CHARS
from graphs.bootstrap import OPENING_SOURCE_CHARS, task_of
from memory.graph import Observed
from memory.pii import scrub, scrub_artifacts
from memory.records import Outcome, RunArtifacts
from tests.conftest import SAMPLES
from tools.contract import parse_contract

SAMPLES_TEXT = (SAMPLES / "northwind_msa_01.txt").read_text()

VALUES = {
    "iban": "GB82 WEST 1234 5698 7654 32",
    "card": "4111 1111 1111 1111",
    "email": "jane.doe@example.com",
    "phone": "+44 113 496 0721",
    "ssn": "536-90-4521",
}
TASK_PREFIX = len('Review the supplier contract "c.txt" for the buyer against the playbook.\nTask type: '
                  'supplier_contract_review.\nContract opening: ')
# every cut a value meets on its way into an episode: the task's source text, the task's opening,
# the offline extractor's opening (200) and its whole-task fallback (300 of the task message)
CUTS = sorted({OPENING_SOURCE_CHARS, OPENING_CHARS, 200, 300 - TASK_PREFIX})
WORDS = ("supply agreement between acme components limited and beta retail group for the "
         "purchase of goods on the terms below each party agrees as follows ").split()


def _contract(value: str, at: int) -> str:
    """Single-spaced words (so offsets survive whitespace normalisation) with `value` at `at`."""
    filler = " ".join(WORDS[i % len(WORDS)] for i in range(400))
    head = "SUPPLY AGREEMENT " + filler[17:at - 1] + " "  # a word boundary before the value
    return head + value + " " + filler[at:]


def _fragments(value: str, size: int = 5) -> set[str]:
    compact = re.sub(r"[\W_]", "", value).lower()
    return {compact[i:i + size] for i in range(len(compact) - size + 1)}


AGENT = ContractMemoryAgent()


def _stored_text(state: dict) -> str:
    """What a run would store of a contract, and what its extraction model reads: the agent's
    summary, its record, its digest and the scrubbed artifacts the extraction makes of that."""
    profile = AGENT.profile(state)
    observed = Observed(Outcome.FAILED, open_items=("liability_cap",))
    record = AGENT.record(state, profile, observed)
    digest = AGENT.digest(state, record, observed)
    artifacts = RunArtifacts.model_validate(extract_artifacts([HumanMessage(digest)]))
    return json.dumps(scrub_artifacts(artifacts).model_dump(mode="json")) + record.model_dump_json() + digest


@pytest.mark.parametrize("kind", sorted(VALUES))
def test_a_value_cut_by_any_truncation_is_never_stored_in_part(kind):
    ctx = SimpleNamespace(task_type="supplier_contract_review")
    value = VALUES[kind]
    fragments = _fragments(value)
    checked = seen = 0
    for cut in CUTS:
        for at in range(cut - len(value) + 1, cut + 1):  # the value straddles the cut, or ends on it
            text = _contract(value, at)
            assert text.index(value) == at
            contract = parse_contract(text, "c.txt").model_dump()
            seen += value[:8] in task_of(contract, ctx.task_type)  # the reviewer reads it, memory keeps none of it
            stored = re.sub(r"[\W_]", "", _stored_text({"contract": contract})).lower()
            leaked = sorted(f for f in fragments if f in stored)
            assert not leaked, (kind, cut, at, leaked)
            checked += 1
    assert checked >= len(CUTS) * (len(value) - 1) and seen


@pytest.mark.parametrize("ssn", ["536-90-4521", "123-45-6789", "078-05-1120", "536 90 4521"])
def test_a_us_ssn_needs_no_cue(ssn):
    for text in (f"The consultant ({ssn}) agrees", f"reference {ssn}.", f"Contractor: Lee, {ssn}, Ohio"):
        assert ssn not in scrub(text).text
    assert scrub("dated 2025-03-14, order 12-345-6789, part 1234-56-789").text == \
        "dated 2025-03-14, order 12-345-6789, part 1234-56-789"


@pytest.mark.parametrize("kind", ["iban", "card"])
def test_a_review_stores_no_part_of_a_value_its_opening_cut_splits(kind, settings, tmp_path):
    from langgraph.checkpoint.memory import InMemorySaver

    from graphs.runner import Reviewer
    from memory.backends import open_memory
    from memory.records import Namespace

    value = VALUES[kind]
    body = SAMPLES_TEXT.split("\n\n", 1)[1]
    opening = "MASTER SUPPLY AGREEMENT " + " ".join(WORDS * 4)
    at = 200 - len(value) // 2  # the stored opening (200 characters) ends in the middle of the value
    contract = tmp_path / "cut.txt"
    contract.write_text(opening[:at - 1] + " " + value + " " + opening[at:] + "\n\n" + body)
    report = Reviewer(settings, InMemorySaver()).review_path(contract, thread_id="cut-1")
    assert report["outcome"] == "COMPLETED"
    memory = open_memory(settings.resolved_memory_url())
    ns = Namespace(tenant=settings.tenant, agent=settings.agent)
    [episode] = memory.episodes.list(ns)
    stored = " ".join(r.model_dump_json() for r in [episode, *memory.procedures.list(ns)])
    memory.close()
    assert episode.task_summary.startswith("Contract review: master supply agreement")  # derived, no opening
    assert "between" not in stored and "Opening" not in stored
    compact = re.sub(r"[\W_]", "", stored).lower()
    assert not sorted(f for f in _fragments(value, 6) if f in compact)
