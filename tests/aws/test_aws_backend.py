"""The AWS backend's own promises beyond the conformance suite: URLs, storage format, key design."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memory.backends import open_memory
from memory.backends.aws import open_aws_memory, parse_aws_url, schema
from memory.errors import MemoryConfigError
from memory.records import Episode, Fact, Namespace, Outcome, Procedure, ProcedureStatus
from memory.stores import VectorQuery
from tests.aws.moto_support import open_backend

ROOT = Path(__file__).resolve().parents[2]
NS = Namespace(tenant="acme", agent="reviewer")
NOW = datetime(2026, 6, 1, tzinfo=UTC)


class CallLog:
    """Wraps a boto3 client and records (operation, request) of every call."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.calls: list[tuple[str, dict]] = []

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if not callable(attribute) or name.startswith("get_waiter"):
            return attribute

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, kwargs))
            return attribute(*args, **kwargs)

        return call

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]


def episode(run_id: str, summary: str = "review a supply agreement", **extra: Any) -> Episode:
    return Episode(run_id=run_id, task_type="review", task_summary=summary, outcome=Outcome.COMPLETED,
                   created_at=NOW - timedelta(days=1), expires_at=NOW + timedelta(days=89),
                   embedding_model="m", **extra)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("s3://?bucket=x", "not an AWS memory URL"),
        ("aws://?region=us-east-1&tabel_prefix=x", "unknown memory URL parameter"),
        ("aws://?kb_id=KB1&bucket=b", "both kb_id and data_source_id"),
        ("aws://?kb_id=KB1&data_source_id=DS1", "needs the bucket"),
        ("aws://?ingest_batch=0", "ingest_batch"),
        ("aws://?region=a&region=b", "given 2 times"),
    ],
)
def test_bad_memory_urls_say_what_to_fix(url, message):
    with pytest.raises(MemoryConfigError, match=message):
        parse_aws_url(url)


def test_a_full_url_is_understood():
    config = parse_aws_url(
        "aws://?region=eu-west-1&table_prefix=prod&bucket=mem&kb_id=KB1&data_source_id=DS1"
        "&endpoint_url=http://127.0.0.1:5000&ingest_batch=50"
    )
    assert (config.region, config.table_prefix, config.bucket, config.kb_id, config.data_source_id) == (
        "eu-west-1", "prod", "mem", "KB1", "DS1")
    assert config.endpoint_url == "http://127.0.0.1:5000" and config.ingest_batch == 50


def test_importing_the_backend_needs_no_boto3_until_it_is_opened():
    code = ("import sys; import memory.backends.aws, memory.pii.comprehend, memory.decay_lambda; "
            "assert 'boto3' not in sys.modules and 'botocore' not in sys.modules")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def test_open_memory_opens_aws_urls(aws, monkeypatch):
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_SESSION_TOKEN": "testing"}.items():
        monkeypatch.setenv(name, value)
    memory = open_memory("aws://?region=us-east-1&table_prefix=dispatch&create_tables=true")
    assert memory.episodes.add(NS, episode("r1"), [1.0, 0.0])
    assert memory.episodes.get(NS, "r1").run_id == "r1"


def test_missing_tables_are_a_configuration_error_naming_the_fix(aws):
    with pytest.raises(MemoryConfigError, match=r"nothing-episodes.*do not exist.*terraform apply"):
        open_aws_memory("aws://?region=us-east-1&table_prefix=nothing", clients=aws)


def test_items_are_stored_compactly_and_typed(aws):
    memory = open_backend(aws)
    memory.episodes.add(NS, episode("r1"), [0.6, 0.8, 0.0, 0.0])
    item = aws["dynamodb"].get_item(TableName=memory.episodes._table,
                                    Key={"pk": {"S": "acme/reviewer"}, "sk": {"S": "r1"}})["Item"]
    assert len(item["vector"]["B"]) == 4 * 4  # float32, not a list of Decimal strings
    assert item["embedding_model"] == {"S": "m"}
    assert item[schema.EXPIRES_AT] == {"N": str(int((NOW + timedelta(days=89)).timestamp()))}  # TTL: epoch s
    assert item[schema.CREATED_AT] == {"S": "2026-05-31T00:00:00.000000Z"}
    assert memory.episodes.get(NS, "r1") == episode("r1")  # exact round trip


def test_without_a_vector_bucket_search_pages_through_a_partition_larger_than_one_query_page(aws):
    memory = open_backend(aws, vectors=False)  # the development set-up: no S3 Vectors
    log = CallLog(aws["dynamodb"])
    memory.episodes._db = log
    padding = "x" * 40_000  # 40 items of ~40 KB: more than DynamoDB's 1 MB page
    for i in range(40):
        memory.episodes.add(NS, episode(f"r{i:02}", padding), [0.0, 1.0] if i < 39 else [1.0, 0.0])
    query = VectorQuery(text="supply", vector=[1.0, 0.0], embedding_model="m", k=1, min_score=0.7, now=NOW)
    log.calls.clear()
    results = memory.episodes.search(NS, query)
    assert [s.item.run_id for s in results] == ["r39"]  # the newest is on the last page
    queries = [kwargs for name, kwargs in log.calls if name == "query"]
    assert len(queries) >= 2 and "ExclusiveStartKey" in queries[-1]
    assert "scan" not in log.names()


def test_serving_and_updating_procedures_use_keys_not_scans(aws):
    memory = open_backend(aws)
    store = memory.procedures
    store.propose(NS, Procedure(procedure_id="p1", task_type="review", title="t", steps=["a"], source_runs=["r1"]))
    log = CallLog(aws["dynamodb"])
    store._db = log
    store.set_status(NS, "p1", ProcedureStatus.VALIDATED, by="dana")
    store.record_application(NS, "p1", success=True)
    assert store.best(NS, "review").procedure_id == "p1"
    assert "scan" not in log.names()
    update = next(kwargs for name, kwargs in log.calls if name == "update_item" and "ADD" in kwargs["UpdateExpression"])
    assert update["Key"] == {"pk": {"S": "acme/reviewer"}, "sk": {"S": "PROC#p1"}}
    best = [kwargs for name, kwargs in log.calls if name == "query"][-1]
    assert best["IndexName"] == schema.PROCEDURES_BY_TASK and best["ConsistentRead"] is True
    assert best["ExpressionAttributeValues"][":ts"] == {"S": "review#validated"}


def test_confirmations_are_a_string_set_per_tenant(aws):
    memory = open_backend(aws)
    memory.confirmations.observe(NS, "caps below 2x are red flags", "run-b")
    memory.confirmations.observe(Namespace(tenant="acme", agent="drafter"), "caps below 2x are red flags", "run-a")
    item = aws["dynamodb"].get_item(TableName=memory.confirmations._table,
                                    Key={"pk": {"S": "acme"}, "sk": {"S": "caps below 2x are red flags"}})["Item"]
    assert sorted(item["runs"]["SS"]) == ["run-a", "run-b"]
    assert memory.confirmations.runs(NS, "caps below 2x are red flags") == ["run-b", "run-a"]  # first seen first


def test_every_partition_key_starts_with_the_tenant(aws):
    memory = open_backend(aws)
    memory.episodes.add(NS, episode("r1"), [1.0, 0.0])
    memory.procedures.propose(NS, Procedure(procedure_id="p1", task_type="review", title="t", steps=["a"]))
    memory.confirmations.observe(NS, "k", "r1")
    for table in schema.TABLES:
        items = aws["dynamodb"].scan(TableName=schema.table_name(memory.config.table_prefix, table))["Items"]
        for item in items:
            assert item["pk"]["S"] in ("acme", "acme/reviewer")  # what the IAM LeadingKeys condition confines


def test_endpoint_url_points_dynamodb_and_s3_at_a_local_server(monkeypatch):
    from tests.aws.moto_support import clients, server_url

    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "testing")
    url = server_url()
    clients(url)["s3"].create_bucket(Bucket="endpoint-test")
    memory = open_memory(
        f"aws://?region=us-east-1&table_prefix=endpoint&bucket=endpoint-test&create_tables=true&endpoint_url={url}"
    )
    memory.facts.put(NS, Fact(fact_id="f1", domain="d", text="caps below 2x are red flags", confidence=0.9,
                              embedding_model="m"), [1.0, 0.0])
    keys = [o["Key"] for o in clients(url)["s3"].list_objects_v2(Bucket="endpoint-test")["Contents"]]
    assert sorted(keys) == ["facts/acme/f1.txt", "facts/acme/f1.txt.metadata.json"]
    assert memory.facts.get(NS, "f1").text == "caps below 2x are red flags"


def test_deleting_a_procedure_forgets_which_runs_it_counted(aws):
    memory = open_backend(aws)
    proposal = Procedure(procedure_id="p#1", task_type="review", title="t", steps=["a"])
    memory.procedures.propose(NS, proposal)
    memory.procedures.record_application(NS, "p#1", success=True, run_id="run#1")
    assert memory.procedures.delete(NS, ["p#1"]) == 1
    memory.procedures.propose(NS, proposal)
    memory.procedures.record_application(NS, "p#1", success=True, run_id="run#1")
    assert memory.procedures.get(NS, "p#1").applications == 1
    remaining = aws["dynamodb"].scan(TableName=memory.procedures._table)["Items"]
    assert len(remaining) == 2  # the procedure and its one marker, nothing left from before
