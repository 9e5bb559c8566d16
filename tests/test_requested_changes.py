"""Requested changes drafted for the contract under review (issue 30): each names its provision
and figure and gives wording a lawyer could paste, in the contract's own defined terms, derived
from the playbook's position; "no change" says why in one line. Checked over every finding of
several contracts (the samples and, where present, CUAD development contracts)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agent.report import asks_change, build_report, render_markdown
from tools.contract import parse_contract
from tools.detection.advice import ask_for
from tools.detection.parties import identify_parties
from tools.detection.redline import ContractTerms, draft
from tools.detection.review import detect_all
from tools.playbook import load_playbook

PLAYBOOK = load_playbook()
SAMPLES = Path(__file__).resolve().parents[1] / "sample_contracts"
CUAD = Path(__file__).resolve().parents[2] / "shared" / "cuad" / "contracts"
# development contracts of different kinds (supply, licence and hosting, distribution, transport)
CUAD_DEV = ("BELLICUMPHARMACEUTICALS,INC_05_07_2019-EX-10.1-Supply Agreement.txt",
            "CORIOINC_07_20_2000-EX-10.5-LICENSE AND HOSTING AGREEMENT.txt",
            "NETGEAR,INC_04_21_2003-EX-10.16-DISTRIBUTOR AGREEMENT.txt",
            "MPLXLP_06_17_2015-EX-10.1-TRANSPORTATION SERVICES AGREEMENT.txt")


def report_of(text: str, name: str = "contract.txt") -> dict:
    """The report of a no-model review of `text` (detect_all's findings), as build_report gives it."""
    contract = parse_contract(text, name)
    contract.parties = identify_parties(text).as_dict()
    return build_report({"contract": contract.model_dump(), "findings": detect_all(contract, PLAYBOOK), "run_id": "t"})


def _flat(text: str) -> str:
    return " ".join(text.split())


def _contracts() -> list[Path]:
    paths = [SAMPLES / f"{n}.txt" for n in ("cobalt_distribution_agreement", "northwind_msa_01", "skyline_saas_subscription",
                                            "tidewater_logistics_services", "ironbridge_manufacturing_supply",
                                            "pinecrest_maintenance_support", "kestrel_supply_01")]
    return paths + [CUAD / n for n in CUAD_DEV if (CUAD / n).exists()]


@pytest.mark.parametrize("path", _contracts(), ids=lambda p: p.stem[:30])
def test_every_requested_change_is_drafted_for_this_contract(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    report = report_of(text, path.name)
    flat = _flat(parse_contract(text, path.name).text)  # the text as read (page numbers between lines dropped)
    terms = ContractTerms.of(report["parties"], text)
    asked = [f for f in report["findings"] if asks_change(f)]
    assert asked, "every contract here has something to ask for"
    for finding in report["findings"]:
        entry = PLAYBOOK.entry(finding["clause_type"])
        said, redline = finding["recommendation"], finding["redline"]
        if not asks_change(finding):  # no change: says why, in one line
            assert said.startswith("No change needed: ") and len(said) > 40 and "\n" not in said, said
            continue
        # never the playbook's fixed wording
        assert ask_for(entry) not in said and entry.recommendation not in said, said
        assert redline["action"] in ("replace", "add", "delete", "insert") and redline["text"], redline
        assert redline["text"] != redline["find"], redline  # a real change
        assert not redline["figure"] or redline["figure"] != redline["target"], redline
        if finding["verdict"] == "missing":
            assert said.startswith(f'Insert a new clause "{entry.title}"'), said
        else:
            # names the provision, and quotes the words it changes as the contract prints them
            assert said.lower().startswith(finding["citation"].lower()), said
            assert redline["find"] and _flat(redline["find"]) in flat, redline["find"]
            assert f'"{redline["find"]}"' in said or f'"{_tail(redline["find"])}"' in said
        # the new wording is the contract's: its defined terms or its own clause with a new figure
        # (a governing-law clause the contract has is changed in its own words with the new law; one
        # inserted or added names the parties)
        own_terms = any(t.strip("[]").removeprefix("the ").lower() in redline["text"].lower() for t in (terms.buyer, terms.supplier))
        targets = redline["target"].split("; ") if redline["target"] else []
        moved = redline["action"] == "replace" and redline["figure"] and targets and \
            redline["figure"] != redline["target"] and all(t in redline["text"] for t in targets)
        law = finding["clause_type"] == "governing_law" and redline["action"] == "replace" and "New York" in redline["text"]
        assert own_terms or moved or law, (finding["clause_type"], redline)


def _tail(text: str) -> str:
    parts = text.split()
    return "…" + " ".join(parts[-8:]) if len(parts) > 8 else text


CONTRACT = """SUPPLY AGREEMENT

This Supply Agreement is made between Acme Devices Inc., a Delaware corporation ("Company"), and
Beta Health LLC ("Purchaser").

14. WARRANTY

14.1 Company shall deliver the Products in accordance with the Specifications.

14.2 Company warrants that the Products will be free from defects in materials and workmanship for ninety (90) days from delivery.

15. PAYMENT

15.1 Purchaser shall pay each invoice within thirty (30) days of the invoice date.

16. GOVERNING LAW

16.1 This Agreement is governed by the laws of the State of Texas.
"""


def test_a_short_warranty_gets_a_redline_with_the_playbook_figure_in_the_contracts_words():
    findings = {f["clause_type"]: f for f in report_of(CONTRACT)["findings"]}
    warranty = findings["warranty"]
    assert warranty["verdict"] == "deviation"
    said = warranty["recommendation"]
    assert said.startswith("Section 14.2")
    assert 'replace "Company warrants that the Products will be free from defects in materials and workmanship for ninety ' \
           '(90) days from delivery." with: "Company warrants that the Products will be free from defects in materials and ' \
           'workmanship for twelve (12) months from delivery."' in said
    assert warranty["redline"]["figure"] == "ninety (90) days" and warranty["redline"]["target"] == "twelve (12) months"
    payment = findings["payment_terms"]["recommendation"]
    assert "within sixty (60) days of the invoice date" in payment and "Purchaser may withhold any amount it disputes" in payment
    law = findings["governing_law"]["recommendation"]
    assert '"This Agreement is governed by the laws of the State of New York."' in law


def test_a_missing_clause_gets_wording_to_insert_in_the_contracts_defined_terms():
    findings = {f["clause_type"]: f for f in report_of(CONTRACT)["findings"]}
    audit = findings["audit_rights"]
    assert audit["verdict"] == "missing"
    assert audit["redline"]["action"] == "insert"
    assert "Purchaser may, once in any twelve (12)-month period" in audit["recommendation"]
    assert "audit Company's records" in audit["recommendation"]
    insurance = findings["insurance"]["recommendation"]
    assert "Company shall maintain commercial general liability insurance of at least USD 2,000,000" in insurance


def test_figures_follow_the_contracts_style_and_the_playbooks_thresholds():
    entry = PLAYBOOK.entry("warranty")
    terms = ContractTerms("Licensee", "Philips")
    digits = {"clause_type": "warranty", "verdict": "deviation", "citation": "Section 9.1",
              "quote": "Philips warrants the Goods for 90 days after delivery."}
    redline = draft(digits, entry, terms)
    assert redline.text == "Philips warrants the Goods for 12 months after delivery."
    stricter = entry.model_copy(update={"metric": entry.metric.model_copy(update={"standard_min": 18})})
    assert "18 months" in draft(digits, stricter, terms).text  # derived from the playbook, not fixed


def test_no_change_and_favourable_say_why_in_one_line():
    entry = PLAYBOOK.entry("liability_cap")
    terms = ContractTerms("Customer", "Vendor")
    favourable = {"clause_type": "liability_cap", "verdict": "favourable", "severity": "none", "citation": "Section 8.3",
                  "quote": "Vendor's liability to Customer is not limited.", "recommendation": ""}
    said = draft(favourable, entry, terms).sentence()
    assert said.startswith("No change needed: Section 8.3 favours the buyer") and "\n" not in said
    none_needed = draft({"clause_type": "non_compete", "verdict": "missing", "severity": "none"},
                        PLAYBOOK.entry("non_compete"), terms).sentence()
    assert none_needed == "No change needed: the contract has no non-compete and non-solicitation clause, and the buyer wants none."


def test_a_supplier_only_right_or_a_fee_gets_the_buyers_right_added_never_struck():
    entry = PLAYBOOK.entry("termination_convenience")
    terms = ContractTerms("Customer", "Metavante")
    fee = {"clause_type": "termination_convenience", "verdict": "deviation", "citation": "Section 8.4",
           "quote": "Customer may elect to terminate this Agreement for any reason upon thirty (30) days' notice and payment "
                    "of the early termination fee set out in Exhibit C."}
    redline = draft(fee, entry, terms)
    assert redline.action == "add" and "No termination fee, charge or penalty is payable when Customer terminates" in redline.text
    only_supplier = {"clause_type": "termination_convenience", "verdict": "deviation", "citation": "Section 8.5",
                     "quote": "Metavante may terminate this Agreement for convenience on thirty (30) days' notice."}
    redline = draft(only_supplier, entry, terms)
    assert redline.action == "add" and redline.text.startswith("Customer may terminate this Agreement for convenience")


def test_unknown_parties_get_placeholders_never_a_guess():
    terms = ContractTerms.of(None, "This agreement is between the parties named below.")
    assert (terms.buyer, terms.supplier) == ("[Customer]", "[Supplier]")
    entry = PLAYBOOK.entry("audit_rights")
    redline = draft({"clause_type": "audit_rights", "verdict": "missing", "severity": "low"}, entry, terms)
    assert "[Customer] may" in redline.text and "[Supplier]'s records" in redline.text


def test_defined_terms_are_used_as_the_contract_writes_them():
    text = ('This Agreement is between Acme Ltd ("the Supplier") and Zeta plc ("the Customer"). The Customer shall pay '
            "the Supplier. The Supplier shall deliver to the Customer.")
    terms = ContractTerms.of(identify_parties(text), text)
    assert terms.buyer == "the Customer" and terms.supplier == "the Supplier"


def test_markdown_carries_the_drafted_change():
    markdown = render_markdown(report_of(CONTRACT))
    assert re.search(r"\*\*warranty\*\* \(deviation, high\): Section 14\.2 .*replace \"Company warrants", markdown)


def test_a_missing_governing_law_is_inserted_as_a_clause_between_the_parties():
    text = ("SERVICES AGREEMENT\n\nThis Services Agreement is made between Larkspur Analytics Inc. (\"Client\") and "
            "Brackenridge Data LLC (\"Provider\").\n\n1. SERVICES\n1.1 Provider shall perform the services described "
            "in each statement of work.\n\n2. FEES\n2.1 Client shall pay each invoice within sixty (60) days of receipt.\n")
    law = next(f for f in report_of(text)["findings"] if f["clause_type"] == "governing_law")
    assert law["verdict"] == "missing" and law["redline"]["action"] == "insert"
    assert "between Client and Provider" in law["recommendation"], law["recommendation"]
