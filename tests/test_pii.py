"""PII scrubbing: planted personal data never survives, contract terms always do."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from bench.sequences import expected_rows
from memory.pii import (
    ENTITY_TYPES,
    PiiEntity,
    Scrubber,
    ScrubResult,
    apply_entities,
    scrub,
    scrub_artifacts,
    split_for_limit,
)
from memory.pii.local import LocalScrubber
from memory.records import FactCandidate, Outcome, ProcedureProposal, RunArtifacts

SAMPLES = Path(__file__).resolve().parents[1] / "sample_contracts"
PLANTED: dict[str, list[str]] = json.loads(
    (SAMPLES / "planted_pii.json").read_text(encoding="utf-8")
)
EXPECTED = expected_rows()


def _text(name: str) -> str:
    return (SAMPLES / f"{name}.txt").read_text(encoding="utf-8")


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def scrubber() -> LocalScrubber:
    return LocalScrubber()


def test_every_sample_has_planted_pii_listed():
    assert set(PLANTED) == {p.stem for p in SAMPLES.glob("*.txt")}
    for name, values in PLANTED.items():
        text = _text(name)
        assert len(values) >= 10
        assert all(v in text for v in values), name


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_planted_values_are_gone_after_scrubbing(scrubber, name):
    result = scrubber.scrub(_text(name))
    leaked = [v for v in PLANTED[name] if _squash(v) in _squash(result.text)]
    assert leaked == []
    for kind in ("PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "STREET_ADDRESS"):
        assert f"<{kind}>" in result.text


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_only_personal_data_is_replaced_in_samples(scrubber, name):
    """Every replaced span touches a planted value: clause text, amounts, section numbers,
    standards and company names are left exactly as they were."""
    text = _text(name)
    planted_spans = [
        (m.start(), m.end()) for value in PLANTED[name] for m in re.finditer(re.escape(value), text)
    ]
    result = scrubber.scrub(text)
    for entity in result.entities:
        assert any(entity.start < end and start < entity.end for start, end in planted_spans), (
            entity.type,
            text[entity.start : entity.end],
        )
    contract = EXPECTED[name]
    for company in (contract["buyer"], contract["supplier"]):
        assert company in result.text


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_planted_values_are_gone_from_pdf_text(scrubber, name):
    """The same holds for text extracted from the PDFs, where lines wrap differently."""
    reader = PdfReader(SAMPLES / f"{name}.pdf")
    extracted = "\n".join(page.extract_text() or "" for page in reader.pages)
    scrubbed = _squash(scrubber.scrub(extracted).text)
    assert [v for v in PLANTED[name] if _squash(v) in scrubbed] == []


CRAFTED = [
    ("Attention: Jane Smith, General Counsel", "Jane Smith", "PERSON"),
    ("By: ____________ Name: John Doe Title: Chief Financial Officer", "John Doe", "PERSON"),
    ("By: /s/ Amelie Durand-Roux\nName: Amelie Durand-Roux", "Amelie Durand-Roux", "PERSON"),
    ("For the attention of: Dr. Søren Ødegård", "Søren Ødegård", "PERSON"),
    (
        "Escalations go to Mr. Patrick O'Sullivan on the night shift.",
        "Patrick O'Sullivan",
        "PERSON",
    ),
    ("Attn: Li Wei Zhang\nLater, Li Wei Zhang approved the order.", "Li Wei Zhang", "PERSON"),
    ("Email jane.doe@example.com for copies.", "jane.doe@example.com", "EMAIL_ADDRESS"),
    (
        "Send to j_smith+contracts@mail.example.org.",
        "j_smith+contracts@mail.example.org",
        "EMAIL_ADDRESS",
    ),
    ("Call +33 1 23 45 67 89 today.", "+33 1 23 45 67 89", "PHONE_NUMBER"),
    ("Phone: +44 (0)113 496 0000", "+44 (0)113 496 0000", "PHONE_NUMBER"),
    ("Telephone (212) 555-0198 during office hours.", "(212) 555-0198", "PHONE_NUMBER"),
    ("Mobile 07700 900123 out of hours.", "07700 900123", "PHONE_NUMBER"),
    ("Tel: 01134960000", "01134960000", "PHONE_NUMBER"),
    ("Call +81 3-1234-5678 in Tokyo.", "+81 3-1234-5678", "PHONE_NUMBER"),
    ("IBAN: DE44 5001 0517 5407 3249 31", "DE44 5001 0517 5407 3249 31", "IBAN_CODE"),
    ("pay to GB14BARC20325367104381 by transfer", "GB14BARC20325367104381", "IBAN_CODE"),
    ("Card 4539 1488 0310 0006, expiry 10/27", "4539 1488 0310 0006", "CREDIT_CARD"),
    ("card number 4111-1111-1111-1111", "4111-1111-1111-1111", "CREDIT_CARD"),
    ("card number 5425 2334 3010\n9903 (wrapped)", "9903", "CREDIT_CARD"),
    ("IBAN NL41 RABO 0318\n2746 50 (wrapped)", "2746 50", "IBAN_CODE"),
    ("SSN 536-22-8814 on file", "536-22-8814", "US_SSN"),
    ("Social Security Number: 412559012", "412559012", "US_SSN"),
    ("EIN: 12-3456789", "12-3456789", "TAX_ID"),
    ("VAT No. FR 123 4567 890", "FR 123 4567 890", "TAX_ID"),
    ("Taxpayer Identification Number 98-7654321", "98-7654321", "TAX_ID"),
    ("UEN 201912345K", "201912345K", "TAX_ID"),
    ("Sort code 60-16-13, then the account", "60-16-13", "BANK_ACCOUNT"),
    ("Account No. 31926819 at the branch", "31926819", "BANK_ACCOUNT"),
    ("ABA routing number 021000021", "021000021", "BANK_ACCOUNT"),
    ("account number 0001-2345-6789", "0001-2345-6789", "BANK_ACCOUNT"),
    ("Our office is at 221 Baker Street, London NW1 6XE.", "221 Baker Street", "STREET_ADDRESS"),
    (
        "Deliver to 1600 Pennsylvania Avenue, Suite 200, Washington, DC 20500 by Friday.",
        "1600 Pennsylvania Avenue",
        "STREET_ADDRESS",
    ),
    ("Lieferung an Hauptstraße 5, 10115 Berlin", "Hauptstraße 5", "STREET_ADDRESS"),
    (
        "Address: Flat 3, Rosebank Mansions, Leith, Edinburgh EH6 6JJ",
        "Rosebank Mansions",
        "STREET_ADDRESS",
    ),
]


@pytest.mark.parametrize(
    ("text", "value", "kind"), CRAFTED, ids=[c[2] + ":" + c[1] for c in CRAFTED]
)
def test_crafted_entities_are_replaced_by_their_label(scrubber, text, value, kind):
    result = scrubber.scrub(text)
    assert value not in result.text
    assert f"<{kind}>" in result.text
    assert kind in result.counts


ORDINARY = [
    "9.2 Limitation of Liability. Each party's total aggregate liability shall not exceed two (2) times "
    "the Fees paid or payable in the twelve (12) months preceding the event giving rise to the claim.",
    "Supplier shall maintain commercial general liability insurance of not less than USD 2,000,000 per "
    "occurrence and GBP 5,000,000 public liability cover.",
    "Buyer shall pay each undisputed invoice within sixty (60) days of receipt; interest accrues at 0.5% "
    "per month. See clause 14.2, Schedule 3 and Exhibit B dated 1 April 2025.",
    "Supplier shall maintain ISO 9001:2015, IATF 16949 and AS9100 Revision D certification, and NADCAP "
    "accreditation, and report under ISO/IEC 27001.",
    "Northwind Components Ltd (company number 08814527) shall deliver NW-PCB-4410 boards to Harbor Point "
    "Medical Devices Inc. DAP (Incoterms 2020) within 30 days.",
    "The Carrier's liability shall not exceed SDR 8.33 per kilogram; storage costs USD 0.45 per cubic "
    "metre per day; 400 FEU per quarter at USD 350 per FEU.",
    "Notices shall be addressed to the General Counsel. Attention: Legal Department. Account name: "
    "Skyline Analytics, Inc.",
    "This Agreement is governed by the laws of the State of New York, and the courts of New Castle "
    "County, Delaware, have jurisdiction. Availability of 99.9% is measured at one-minute intervals.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_clause_text_is_unchanged(scrubber, text):
    result = scrubber.scrub(text)
    assert result.text == text
    assert result.entities == []


def test_long_text_is_scrubbed_whole(scrubber):
    """No 5,000-character window: PII deep into a long document is found too."""
    filler = "The Supplier shall perform the Services with reasonable skill and care. " * 1500
    text = filler + "Attention: Harriet Vance\nEmail: harriet.vance@example.com\n" + filler
    assert len(text) > 200_000
    result = scrubber.scrub(text)
    assert "Harriet Vance" not in result.text
    assert "harriet.vance@example.com" not in result.text
    assert result.text.count("reasonable skill and care") == 3000


def test_scrubbing_is_deterministic_and_idempotent_on_a_long_text(scrubber):
    # Speed is a benchmark figure (`make bench`), not a timed test: here only behaviour.
    text = _text("northwind_msa_01")[:10_240]
    once = scrubber.scrub(text).text
    assert once == scrubber.scrub(text).text
    assert scrubber.scrub(once).text == once


def test_result_offsets_point_into_the_original_and_keep_no_values(scrubber):
    text = _text("tidewater_logistics_services")
    result = scrubber.scrub(text)
    assert isinstance(result, ScrubResult)
    spans = [(e.start, e.end) for e in result.entities]
    assert spans == sorted(spans)
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in zip(spans, spans[1:], strict=False))
    assert {e.type for e in result.entities} <= set(ENTITY_TYPES)
    assert text[spans[0][0] : spans[0][1]] in PLANTED["tidewater_logistics_services"] or any(
        v in text[spans[0][0] : spans[0][1]] for v in PLANTED["tidewater_logistics_services"]
    )
    assert "weiling.tan" not in repr(result.entities)
    assert sum(result.counts.values()) == len(result.entities)


def test_scrubbing_twice_changes_nothing_more(scrubber):
    once = scrubber.scrub(_text("pinecrest_maintenance_support")).text
    assert scrubber.scrub(once).text == once


def test_module_scrub_and_protocol():
    assert isinstance(LocalScrubber(), Scrubber)
    assert scrub("Contact: Maria Lopez").text == "Contact: <PERSON>"


def test_overlapping_entities_keep_the_more_specific_one():
    text = "mail jane.doe@example.com now"
    start = text.index("jane")
    entities = [
        PiiEntity("PERSON", start, start + 8),
        PiiEntity("EMAIL_ADDRESS", start, start + len("jane.doe@example.com")),
    ]
    assert apply_entities(text, entities).text == "mail <EMAIL_ADDRESS> now"


def test_split_for_limit_covers_the_text_in_bounded_chunks():
    text = _text("northwind_msa_02")
    chunks = list(split_for_limit(text, 5000))
    assert "".join(c for _, c in chunks) == text
    assert all(len(c) <= 5000 for _, c in chunks)
    assert all(text[offset : offset + len(c)] == c for offset, c in chunks)
    assert all(c.endswith(("\n", " ")) for _, c in chunks[:-1])
    with pytest.raises(ValueError):
        list(split_for_limit(text, 0))


def test_run_artifacts_are_scrubbed_field_by_field(scrubber):
    artifacts = RunArtifacts(
        task_summary="Review northwind_msa_01 for Harbor Point; notices to Attention: Marcus Delgado-Reyes",
        outcome=Outcome.COMPLETED,
        key_findings=[
            "liability_cap in section 9.2: deviation (high)",
            "payment_terms: missing (low)",
            "bank details: IBAN GB14 BARC 2032 5367 1043 81",
        ],
        approach="Asked mdelgado@harborpoint-medical.example.org, then read sections 9 and 11.",
        tools_used=["list_sections", "assess_clause"],
        step_count=12,
        reusable_patterns=["Northwind keeps the liability cap in 9.2"],
        fact_candidates=[
            FactCandidate(
                text="Call +44 113 496 0721 for Northwind terms",
                domain="supplier_contracts",
                confidence=0.8,
            ),
            FactCandidate(text="A cap below 2x the annual fees is a red flag.", confidence=0.9),
        ],
        procedure=ProcedureProposal(
            title="Review a Northwind MSA",
            steps=[
                "Read 9.2 first",
                "Email e.whitcombe@northwind-components.example.com if unclear",
            ],
        ),
    )
    clean = scrub_artifacts(artifacts, scrubber)
    dumped = clean.model_dump_json()
    for value in (
        "Marcus Delgado-Reyes",
        "GB14 BARC",
        "mdelgado@",
        "+44 113 496 0721",
        "e.whitcombe@",
    ):
        assert value not in dumped
    assert clean.key_findings[:2] == artifacts.key_findings[:2]
    assert clean.reusable_patterns == artifacts.reusable_patterns
    assert clean.fact_candidates[1] == artifacts.fact_candidates[1]
    assert clean.fact_candidates[0].confidence == 0.8
    assert clean.procedure.title == "Review a Northwind MSA"
    assert clean.procedure.steps[0] == "Read 9.2 first"
    assert (clean.outcome, clean.tools_used, clean.step_count) == (
        Outcome.COMPLETED,
        artifacts.tools_used,
        12,
    )
    assert "Marcus" in artifacts.task_summary  # the input is not modified
