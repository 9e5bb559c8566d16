"""The DynamoDB table layout of the AWS backend: names, keys, indexes, TTL (Terraform mirrors it).

Every partition key (attribute `pk`) starts with the tenant: episodes and procedures are keyed
by `"<tenant>/<agent>"`, facts and the confirmation log by `"<tenant>"` alone (domain knowledge
is shared by the agents of a tenant, as in the SQLite backend). A tenant's IAM role is confined
to its partitions by a `dynamodb:LeadingKeys` condition on `["<tenant>", "<tenant>/*"]`; ids
cannot contain '/', so `"a/*"` never matches tenant `"ab"`.

`tests/aws/test_terraform.py` checks `infrastructure/*.tf` against the constants below, and the
tests create the same tables in moto with `create_tables`.
"""

from __future__ import annotations

from typing import Any

from memory.records import Namespace

PK = "pk"  # partition key of every table: Namespace.key
SK = "sk"  # sort key of every table

EPISODES = "episodes"
FACTS = "facts"
PROCEDURES = "procedures"
CONFIRMATIONS = "confirmations"
TELEMETRY = "telemetry"  # retrieval telemetry: pk "<tenant>/<agent>", sk "<time>#<run>#<tier>", TTL
TABLES = (EPISODES, FACTS, PROCEDURES, CONFIRMATIONS, TELEMETRY)

# episodes: sk = run id; GSI newest-first per namespace; TTL on epoch seconds
EPISODES_BY_CREATED = "by_created_at"
CREATED_AT = "created_at"  # fixed-width ISO-8601 UTC string, sorts chronologically
EXPIRES_AT = "expires_at"  # epoch seconds (Number): the TTL attribute
# facts: sk = "FACT#<fact_id>"; sparse LSI of facts not yet ingested by the Knowledge Base
FACTS_PENDING = "pending_ingestion"
PENDING_SINCE = "pending_since"
# procedures: sk = "PROC#<procedure_id>"; LSI by "<task_type>#<status>" serves best() with a
# strongly consistent Query, so a validation is visible to the very next read
PROCEDURES_BY_TASK = "by_task_status"
TASK_STATUS = "task_status"


def agent_partition(ns: Namespace) -> str:
    """Partition of episodes and procedures: one per tenant + agent."""
    return ns.key


def tenant_partition(ns: Namespace) -> str:
    """Partition of facts and confirmations: one per tenant, shared by its agents."""
    return ns.tenant


def table_name(prefix: str, table: str) -> str:
    return f"{prefix}-{table}"


def _attrs(*names: str) -> list[dict[str, str]]:
    return [{"AttributeName": name, "AttributeType": "S"} for name in names]


def _keys(hash_key: str, range_key: str) -> list[dict[str, str]]:
    return [
        {"AttributeName": hash_key, "KeyType": "HASH"},
        {"AttributeName": range_key, "KeyType": "RANGE"},
    ]


def table_specs(prefix: str) -> dict[str, dict[str, Any]]:
    """`CreateTable` arguments of each table, keyed by logical table name."""
    all_projection = {"ProjectionType": "ALL"}
    return {
        EPISODES: {
            "TableName": table_name(prefix, EPISODES),
            "KeySchema": _keys(PK, SK),
            "AttributeDefinitions": _attrs(PK, SK, CREATED_AT),
            "GlobalSecondaryIndexes": [
                {
                    "IndexName": EPISODES_BY_CREATED,
                    "KeySchema": _keys(PK, CREATED_AT),
                    "Projection": all_projection,
                }
            ],
        },
        FACTS: {
            "TableName": table_name(prefix, FACTS),
            "KeySchema": _keys(PK, SK),
            "AttributeDefinitions": _attrs(PK, SK, PENDING_SINCE),
            "LocalSecondaryIndexes": [
                {
                    "IndexName": FACTS_PENDING,
                    "KeySchema": _keys(PK, PENDING_SINCE),
                    "Projection": all_projection,
                }
            ],
        },
        PROCEDURES: {
            "TableName": table_name(prefix, PROCEDURES),
            "KeySchema": _keys(PK, SK),
            "AttributeDefinitions": _attrs(PK, SK, TASK_STATUS),
            "LocalSecondaryIndexes": [
                {
                    "IndexName": PROCEDURES_BY_TASK,
                    "KeySchema": _keys(PK, TASK_STATUS),
                    "Projection": all_projection,
                }
            ],
        },
        CONFIRMATIONS: {
            "TableName": table_name(prefix, CONFIRMATIONS),
            "KeySchema": _keys(PK, SK),
            "AttributeDefinitions": _attrs(PK, SK),
        },
        TELEMETRY: {
            "TableName": table_name(prefix, TELEMETRY),
            "KeySchema": _keys(PK, SK),
            "AttributeDefinitions": _attrs(PK, SK),
        },
    }


TTL_ATTRIBUTES = {EPISODES: EXPIRES_AT, TELEMETRY: EXPIRES_AT}


def create_tables(dynamodb: Any, prefix: str, *, only: set[str] | None = None) -> None:
    """Create the tables (on-demand billing) and enable TTL: for tests and local development.
    Production tables come from `infrastructure/` (Terraform)."""
    for table, spec in table_specs(prefix).items():
        if only is not None and spec["TableName"] not in only:
            continue
        dynamodb.create_table(BillingMode="PAY_PER_REQUEST", **spec)
        dynamodb.get_waiter("table_exists").wait(TableName=spec["TableName"])
        if table in TTL_ATTRIBUTES:
            dynamodb.update_time_to_live(
                TableName=spec["TableName"],
                TimeToLiveSpecification={"Enabled": True, "AttributeName": TTL_ATTRIBUTES[table]},
            )
