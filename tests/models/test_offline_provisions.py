"""The offline reviewer chooses among a clause type's provisions as the whole-contract review does
(issue 30): the one worst for the buyer, with memory on or off, and the others recorded under it."""

from __future__ import annotations

from graphs.runner import Reviewer, open_checkpointer

PREAMBLE = 'This Hosting Agreement is made between Harlow Dental Group LLC ("Customer") and Quarrystone Systems Inc. ("Provider").'
BODY = """1. SERVICES

1.1 Provider shall host the Customer's website and provide the support services described in Schedule 1.

4. FEES

4.1 Customer shall pay each undisputed invoice within sixty (60) days of receipt.

9. LIMITATION OF LIABILITY

9.1 Each party's aggregate liability under this Agreement shall not exceed two times (2x) the fees paid in the twelve (12) months preceding the claim.

9.2 Neither party shall be liable for indirect or consequential damages.

15. GENERAL

15.1 This Agreement is the entire agreement of the parties.
"""
OVERRIDE = ("\n15.6 Notwithstanding any other term of this Agreement, the Provider's total liability arising out of or in "
            "connection with this Agreement shall not exceed the fees paid by the Customer in the three (3) months "
            "preceding the event giving rise to the claim.\n")


def _cap(report: dict) -> dict:
    return next(f for f in report["findings"] if f["clause_type"] == "liability_cap")


def test_the_offline_reviewer_records_the_provision_worst_for_the_buyer_with_memory_on_or_off(settings, tmp_path):
    plain, amended = tmp_path / "hosting_v1.txt", tmp_path / "hosting_v2.txt"
    plain.write_text(f"{PREAMBLE}\n\n{BODY}")
    amended.write_text(f"{PREAMBLE}\n\n{BODY}{OVERRIDE}")
    with open_checkpointer(settings) as saver:
        cold = _cap(Reviewer(settings, saver, use_memory=False).review_path(amended))
        assert (cold["section"], cold["verdict"]) == ("15.6", "deviation")
        assert "9.1" in [a["section"] for a in cold["also"]]
        warm = Reviewer(settings, saver)
        first = _cap(warm.review_path(plain, thread_id="v1"))  # memory learns the cap at 9.1
        assert (first["section"], first["verdict"]) == ("9.1", "standard")
        # the remembered place holds the milder provision: the contract's ranking decides
        again = _cap(warm.review_path(amended, thread_id="v2"))
        assert (again["section"], again["verdict"]) == ("15.6", "deviation")
