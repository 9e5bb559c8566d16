"""PII scrubbing through Amazon Comprehend: chunked calls, offsets mapped back, type labels.

moto's Comprehend answers the same canned entities for any text, so a botocore Stubber stands
in for it and checks the exact text sent in each call.
"""

from __future__ import annotations

import boto3
import pytest
from botocore.stub import Stubber

from memory.errors import MemoryBackendError
from memory.pii import Scrubber
from memory.pii.comprehend import COMPREHEND_MAX_CHARS, ComprehendScrubber


@pytest.fixture
def comprehend():
    client = boto3.client("comprehend", region_name="us-east-1", aws_access_key_id="testing",
                          aws_secret_access_key="testing")
    with Stubber(client) as stub:
        yield client, stub
        stub.assert_no_pending_responses()


def expect(stub, text: str, entities: list[tuple[str, str, float]]) -> None:
    """Queue one detect_pii_entities call on exactly `text`, finding each (value, type, score)."""
    found = []
    for value, kind, score in entities:
        begin = text.index(value)
        found.append({"Type": kind, "BeginOffset": begin, "EndOffset": begin + len(value), "Score": score})
    stub.add_response("detect_pii_entities", {"Entities": found}, {"Text": text, "LanguageCode": "en"})


def test_entities_become_the_local_scrubbers_labels(comprehend):
    client, stub = comprehend
    text = "Notices to Jane Doe at jane@acme.example or +1 415 555 0100; unknown gets AGE 42."
    expect(stub, text, [("Jane Doe", "NAME", 0.99), ("jane@acme.example", "EMAIL", 0.99),
                        ("+1 415 555 0100", "PHONE", 0.98), ("42", "AGE", 0.9)])
    result = ComprehendScrubber(client).scrub(text)
    assert result.text == "Notices to <PERSON> at <EMAIL_ADDRESS> or <PHONE_NUMBER>; unknown gets AGE <AGE>."
    assert result.counts == {"PERSON": 1, "EMAIL_ADDRESS": 1, "PHONE_NUMBER": 1, "AGE": 1}
    assert isinstance(ComprehendScrubber(client), Scrubber)


def test_long_text_is_sent_in_chunks_of_at_most_5000_characters_and_offsets_map_back(comprehend):
    client, stub = comprehend
    paragraph = ("The supplier shall keep the goods insured at its own cost. " * 40).strip()  # ~2,400 chars
    text = "\n\n".join([paragraph, paragraph + " Contact Jane Doe.", paragraph, paragraph + " Or john@x.example."])
    assert len(text) > 2 * COMPREHEND_MAX_CHARS - 1000
    chunks = _expected_chunks(text)
    assert len(chunks) >= 2 and all(len(c) <= COMPREHEND_MAX_CHARS for c in chunks) and "".join(chunks) == text
    for chunk in chunks:
        entities = []
        if "Jane Doe" in chunk:
            entities.append(("Jane Doe", "NAME", 0.99))
        if "john@x.example" in chunk:
            entities.append(("john@x.example", "EMAIL", 0.99))
        expect(stub, chunk, entities)
    result = ComprehendScrubber(client).scrub(text)
    assert "Jane Doe" not in result.text and "john@x.example" not in result.text
    assert result.text == text.replace("Jane Doe", "<PERSON>").replace("john@x.example", "<EMAIL_ADDRESS>")
    # offsets point into the original text, whichever chunk found them
    assert [text[e.start:e.end] for e in result.entities] == ["Jane Doe", "john@x.example"]


def _expected_chunks(text: str) -> list[str]:
    from memory.pii import split_for_limit

    return [chunk for _, chunk in split_for_limit(text, COMPREHEND_MAX_CHARS)]


def test_low_confidence_findings_are_not_replaced(comprehend):
    client, stub = comprehend
    text = "Ship to Springfield warehouse."
    expect(stub, text, [("Springfield", "ADDRESS", 0.3)])
    assert ComprehendScrubber(client, min_score=0.5).scrub(text).text == text


def test_a_comprehend_failure_stops_the_write_instead_of_storing_raw_text(comprehend):
    client, stub = comprehend
    stub.add_client_error("detect_pii_entities", service_error_code="ThrottlingException",
                          service_message="Rate exceeded", http_status_code=400)
    with pytest.raises(MemoryBackendError, match="Comprehend"):
        ComprehendScrubber(client).scrub("Call Jane Doe.")


def test_chunk_size_above_the_service_limit_is_refused():
    with pytest.raises(Exception, match="chunk_chars"):
        ComprehendScrubber(object(), chunk_chars=COMPREHEND_MAX_CHARS + 1)
