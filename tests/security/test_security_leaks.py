"""Zero-leak scan: review the planted-PII corpus end to end, then search every stored byte.

After the whole corpus is reviewed with memory on (episodes, confirmed facts and a proposed
procedure are written), the raw bytes of everything the agent stored are searched for every
planted personal value, in several spellings: as written, without spaces, lowercased,
JSON-escaped, and digits only for long numbers. On SQLite that is the memory file and the
checkpoint file (with their WAL files); on AWS (moto) every DynamoDB item and every S3 object.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graphs.runner import Reviewer, open_checkpointer
from memory.backends import open_memory
from memory.records import Namespace
from tests.conftest import SAMPLES
from tests.security.support import aws_raw_bytes, sqlite_raw_bytes

PLANTED: dict[str, list[str]] = json.loads((SAMPLES / "planted_pii.json").read_text(encoding="utf-8"))
# PDFs for half the corpus: extraction breaks lines, the scrubber must still catch the values
CORPUS = [SAMPLES / f"{name}.{'pdf' if i % 2 else 'txt'}" for i, name in enumerate(sorted(PLANTED))]


def spellings(value: str) -> set[bytes]:
    forms = {value, re.sub(r"\s+", "", value), value.lower(), json.dumps(value)[1:-1]}
    digits = re.sub(r"\D", "", value)
    if len(digits) >= 8:
        forms.add(digits)
    return {form.encode("utf-8") for form in forms if len(form) >= 5}


_FORMS: dict[bytes, set[tuple[str, str]]] = {}
for _name, _values in PLANTED.items():
    for _value in _values:
        for _form in spellings(_value):
            _FORMS.setdefault(_form.lower(), set()).add((_name, _value))
# one pass over the bytes for every spelling at once (scans of megabytes stay fast)
_PATTERN = re.compile(b"|".join(re.escape(form) for form in sorted(_FORMS, key=len, reverse=True)))


def leaks(stored: bytes) -> list[tuple[str, str]]:
    """Every planted value (case-insensitively, in any of its spellings) found in `stored`."""
    return sorted(set().union(*(_FORMS[match.group()] for match in _PATTERN.finditer(stored.lower()))))


def review_corpus(settings) -> list[dict]:
    with open_checkpointer(settings) as saver:
        reviewer = Reviewer(settings, saver)
        reports = [reviewer.review_path(path, thread_id=f"leak-{i}") for i, path in enumerate(CORPUS)]
        # the checkpoints really hold the contracts (personal data included) ...
        state = reviewer.graph.get_state(reviewer.thread_config("leak-0")).values
        assert PLANTED[CORPUS[0].stem][0] in state["contract"]["text"]
    return reports


def assert_memory_was_written(memory, ns: Namespace) -> None:
    """The scan is only meaningful if every tier was written."""
    assert len(memory.episodes.list(ns, limit=100)) == len(CORPUS)
    assert memory.facts.list(ns), "the corpus confirms facts"
    assert memory.procedures.list(ns), "the corpus proposes a procedure"


def test_no_planted_value_is_stored_anywhere_on_sqlite(settings):
    # finished runs' checkpoints kept (default: deleted at once): they are checked for plain text too
    on_disk = settings.model_copy(update={"checkpointer": "sqlite", "checkpoint_keep_completed_days": 1})
    reports = review_corpus(on_disk)
    assert all(r["outcome"] == "COMPLETED" for r in reports)
    memory = open_memory(on_disk.resolved_memory_url())
    assert_memory_was_written(memory, Namespace(tenant=on_disk.tenant, agent=on_disk.agent))
    memory.close()

    stored = sqlite_raw_bytes(on_disk.sqlite_path)
    assert b"liability_cap in section" in stored  # the scan reads real memory content ...
    assert leaks(stored) == []
    checkpoints = sqlite_raw_bytes(on_disk.checkpoint_path)
    assert len(checkpoints) > 100_000  # ... and the checkpoints of every run
    assert leaks(checkpoints) == [], "checkpoints must be encrypted at rest"


def test_no_planted_value_is_stored_anywhere_on_aws(settings, monkeypatch):
    pytest.importorskip("moto")
    from moto import mock_aws

    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "testing")
    with mock_aws():
        import boto3

        boto3.client("s3", region_name="us-east-1").create_bucket(Bucket="leak-scan")
        url = "aws://?region=us-east-1&table_prefix=leak&bucket=leak-scan&create_tables=true"
        on_aws = settings.model_copy(update={"memory_url": url})
        review_corpus(on_aws)
        memory = open_memory(url)
        assert_memory_was_written(memory, Namespace(tenant=on_aws.tenant, agent=on_aws.agent))
        stored = aws_raw_bytes(memory)
        assert b"liability_cap in section" in stored
        assert any(key.startswith(b"facts/") for key in stored.split(b"\n"))  # fact documents scanned
        assert leaks(stored) == []


def test_the_scan_finds_a_value_that_was_stored(tmp_path):
    """The scan itself works: a planted value written unscrubbed is found in every spelling."""
    value = PLANTED["northwind_msa_01"][0]
    path = Path(tmp_path / "probe.bin")
    for text in (value, value.upper(), value.replace(" ", ""), json.dumps({"v": value}, ensure_ascii=True)):
        path.write_bytes(b"\x00header\x00" + text.encode() + b"\x00")
        assert ("northwind_msa_01", value) in leaks(path.read_bytes())
