"""Memory tells the reviewer where to look first, never lets it stop looking (issue 19).

Real reviews (the graph, SQLite memory, the offline reviewer, the real tools) of small contracts
written here, never seen by the detector's authors: a first contract is reviewed with memory on,
then a changed one. Each later review with memory must be at least as good as memory off.
"""

from __future__ import annotations

from pathlib import Path

PARTIES = ('SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Alder Mills Inc. ("Client") and Brightline '
           'Pumps LLC ("Vendor").\n\n')
PAYMENT = ("1. PAYMENT\n\n1.1 Invoices: Vendor shall invoice monthly. Client shall pay each undisputed invoice "
           "within thirty (30) days of receipt.\n\n")
LAW = ("3. LAW\n\n3.1 Governing Law: This Agreement is governed by the laws of the State of New York, and the "
       "courts of New York County have exclusive jurisdiction.\n")
NO_POACHING = ("2.1 No Poaching: During the term and for twelve (12) months after, neither party shall solicit for "
               "employment any employee of the other party. Nothing in this Agreement restricts either party from "
               "carrying on any business or from dealing with any customer or supplier.")
COMPETING = ("2.2 Competing Products: During the term and for twenty-four (24) months after it ends, the Client "
             "shall not purchase or distribute products manufactured by any competitor of the Vendor.")


def _write(folder: Path, name: str, *people: str) -> Path:
    path = folder / f"{name}.txt"
    path.write_text(PARTIES + PAYMENT + "2. PEOPLE AND CONDUCT\n\n" + "\n\n".join(people) + "\n\n" + LAW)
    return path


def _finding(report: dict, clause_type: str) -> dict:
    return next(f for f in report["findings"] if f["clause_type"] == clause_type)


def test_a_restraint_added_next_to_a_remembered_clause_is_found_with_memory(reviewers, tmp_path):
    """Earlier contracts kept a mutual non-solicitation in 2.1; the new one adds a restraint on the
    buyer in 2.2. Memory points to 2.1, which says "standard"; the whole-contract check in
    assess_clause sends the reviewer to 2.2, as memory off finds it."""
    with_memory, without = reviewers
    first = with_memory.review_path(_write(tmp_path, "alder_01", NO_POACHING))
    assert (_finding(first, "non_compete")["section"], _finding(first, "non_compete")["verdict"]) == ("2.1", "standard")
    later = _write(tmp_path, "alder_02", NO_POACHING, COMPETING)
    on, off = with_memory.review_path(later), without.review_path(later)
    assert on["memory"]["episodes"], "memory was used"
    finding = _finding(on, "non_compete")
    assert (finding["section"], finding["verdict"]) == ("2.2", "deviation")
    assert (_finding(off, "non_compete")["section"], _finding(off, "non_compete")["verdict"]) == ("2.2", "deviation")
    # provenance: memory pointed to 2.1, not here; this finding comes from the current text
    assert finding["memory"]["remembered"] == ['2.1 "No Poaching"']
    assert finding["memory"]["pointed"] is False and finding["memory"]["confirmed"] is None
    payment = _finding(on, "payment_terms")
    assert payment["memory"] == {"remembered": ['1.1 "Invoices"'], "pointed": True, "confirmed": True}
    assert _finding(off, "payment_terms")["memory"] == {"remembered": [], "pointed": False, "confirmed": None}
    # the HTML and Markdown reports say it per finding
    from agent.report import render_markdown
    from agent.report_html import render_html

    html = render_html(on)
    assert "Memory pointed elsewhere (2.1 &quot;No Poaching&quot;)" in html
    assert "Memory pointed here (1.1 &quot;Invoices&quot;); confirmed against the current text." in html
    assert "Memory pointed elsewhere" in render_markdown(on)
    assert "Memory pointed" not in render_html(off)
