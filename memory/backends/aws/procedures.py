"""Procedural tier on DynamoDB: validated step lists, atomic use counters, no scans.

Layout: `pk` = "<tenant>/<agent>", `sk` = "PROC#<procedure_id>" (update-by-id is a direct key),
and the LSI `by_task_status` on `task_status` = "<task_type>#<status>", so "validated procedures
of a task type" is one strongly consistent Query of that exact value (the status is last and
never contains '#', so the value is unambiguous). An LSI rather than a GSI because GSI reads
are eventually consistent: a procedure validated a moment ago would not be served yet.

Counters change only through `ADD` (concurrent runs never lose a count); a named run is counted
once per procedure through a marker item "APPLIED#[procedure, run]" written in the same
transaction as the counters; the success rate is derived when read and `memory.stores.serving_order` picks what to serve (proven, then trials).
Proposing an id that exists keeps its state and appends the new source runs (`list_append`
guarded by `NOT contains`, so a retried run is listed once).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memory.backends.aws import schema
from memory.backends.aws.codec import (
    aws_errors,
    deserialize,
    error_code,
    put_if_absent,
    query_all,
    serialize,
    timestamp,
    to_plain_values,
)
from memory.errors import UnknownRecordError
from memory.records import Namespace, Procedure, ProcedureStatus, utcnow
from memory.stores import serving_order

_PROC = "PROC#"
_APPLIED = "APPLIED#"  # + ["<procedure id>", "<run id>"]: a run counted for a procedure
_FIELDS = set(Procedure.model_fields)


def _applied_prefix(procedure_id: str) -> str:
    return _APPLIED + json.dumps([procedure_id])[:-1] + ","


def _applied_key(procedure_id: str, run_id: str) -> str:
    """JSON-encoded, so no id can contain a separator that makes two pairs collide."""
    return _APPLIED + json.dumps([procedure_id, run_id])


def task_status_key(task_type: str, status: ProcedureStatus) -> str:
    return f"{task_type}#{status.value}"


def _unknown(ns: Namespace, procedure_id: str) -> UnknownRecordError:
    return UnknownRecordError(f"no procedure {procedure_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}")


class DynamoProcedureStore:
    """`memory.stores.ProcedureStore` over one DynamoDB table."""

    def __init__(self, dynamodb: Any, table: str) -> None:
        self._db = dynamodb
        self._table = table

    def _key(self, ns: Namespace, procedure_id: str) -> dict[str, Any]:
        return serialize({schema.PK: schema.agent_partition(ns), schema.SK: _PROC + procedure_id})

    @staticmethod
    def _procedure(item: dict[str, Any]) -> Procedure:
        values = deserialize(item)
        return Procedure.model_validate({k: v for k, v in values.items() if k in _FIELDS})

    # ------------------------------------------------------------------ writes

    def propose(self, ns: Namespace, procedure: Procedure) -> Procedure:

        values = to_plain_values(
            procedure.model_dump(mode="json", exclude={"status", "validated_by", "applications", "successes"})
        )
        values.update(
            {
                schema.PK: schema.agent_partition(ns),
                schema.SK: _PROC + procedure.procedure_id,
                schema.TASK_STATUS: task_status_key(procedure.task_type, ProcedureStatus.PENDING),
                "status": ProcedureStatus.PENDING.value,
                "validated_by": None,
                "applications": 0,
                "successes": 0,
                "created_at": timestamp(procedure.created_at),
                "updated_at": timestamp(procedure.updated_at),
                "source_runs": list(dict.fromkeys(procedure.source_runs)),
            }
        )
        with aws_errors(f"store procedure proposal {procedure.procedure_id!r}"):
            if not put_if_absent(self._db, self._table, values, key_attribute=schema.PK):
                for run_id in procedure.source_runs:  # known id: keep its state, add the runs
                    self._add_source_run(ns, procedure.procedure_id, run_id)
        found = self.get(ns, procedure.procedure_id)
        if found is None:
            raise _unknown(ns, procedure.procedure_id)  # deleted concurrently
        return found

    def _add_source_run(self, ns: Namespace, procedure_id: str, run_id: str) -> None:
        from botocore.exceptions import ClientError

        try:
            self._db.update_item(
                TableName=self._table,
                Key=self._key(ns, procedure_id),
                UpdateExpression="SET #runs = list_append(#runs, :run)",
                ConditionExpression="attribute_exists(#pk) AND NOT contains(#runs, :id)",
                ExpressionAttributeNames={"#runs": "source_runs", "#pk": schema.PK},
                ExpressionAttributeValues=serialize({":run": [run_id], ":id": run_id}),
            )
        except ClientError as exc:
            if error_code(exc) != "ConditionalCheckFailedException":
                raise

    def set_status(
        self, ns: Namespace, procedure_id: str, status: ProcedureStatus, *, by: str | None = None
    ) -> Procedure:
        from botocore.exceptions import ClientError

        current = self.get(ns, procedure_id)
        if current is None:
            raise _unknown(ns, procedure_id)
        names = {"#status": "status", "#ts": schema.TASK_STATUS, "#upd": "updated_at",
                 "#pk": schema.PK, "#tt": "task_type"}
        values: dict[str, Any] = {":status": status.value, ":upd": timestamp(utcnow()),
                                  ":ts": task_status_key(current.task_type, status),
                                  ":tt": current.task_type}
        update = "SET #status = :status, #ts = :ts, #upd = :upd"
        if status == ProcedureStatus.VALIDATED:  # who validated is kept through later flags
            update += ", #by = :by"
            names["#by"] = "validated_by"
            values[":by"] = by
        with aws_errors(f"set the status of procedure {procedure_id!r}"):
            try:
                answer = self._db.update_item(
                    TableName=self._table,
                    Key=self._key(ns, procedure_id),
                    UpdateExpression=update,
                    ConditionExpression="attribute_exists(#pk) AND #tt = :tt",
                    ExpressionAttributeNames=names,
                    ExpressionAttributeValues=serialize(values),
                    ReturnValues="ALL_NEW",
                )
            except ClientError as exc:
                if error_code(exc) == "ConditionalCheckFailedException":
                    raise _unknown(ns, procedure_id) from exc
                raise
        return self._procedure(answer["Attributes"])

    def record_application(
        self, ns: Namespace, procedure_id: str, *, success: bool, run_id: str | None = None
    ) -> None:
        from botocore.exceptions import ClientError

        count = {
            "TableName": self._table,
            "Key": self._key(ns, procedure_id),
            "UpdateExpression": "ADD #apps :one, #wins :win SET #upd = :upd",
            "ConditionExpression": "attribute_exists(#pk)",
            "ExpressionAttributeNames": {"#apps": "applications", "#wins": "successes",
                                         "#upd": "updated_at", "#pk": schema.PK},
            "ExpressionAttributeValues": serialize(
                {":one": 1, ":win": 1 if success else 0, ":upd": timestamp(utcnow())}
            ),
        }
        with aws_errors(f"count a use of procedure {procedure_id!r}"):
            if run_id is None:
                try:
                    self._db.update_item(**count)
                except ClientError as exc:
                    if error_code(exc) == "ConditionalCheckFailedException":
                        raise _unknown(ns, procedure_id) from exc
                    raise
                return
            # One marker item per (procedure, run), written in the same transaction as the
            # counters: a retried run finds its marker and changes nothing, and the procedure
            # item does not grow with its history.
            marker = {schema.PK: schema.agent_partition(ns), schema.SK: _applied_key(procedure_id, run_id)}
            try:
                self._db.transact_write_items(
                    TransactItems=[
                        {"Put": {"TableName": self._table, "Item": serialize(marker),
                                 "ConditionExpression": "attribute_not_exists(#pk)",
                                 "ExpressionAttributeNames": {"#pk": schema.PK}}},
                        {"Update": count},
                    ]
                )
            except ClientError as exc:
                if error_code(exc) != "TransactionCanceledException":
                    raise
                reasons = [r.get("Code") for r in exc.response.get("CancellationReasons", [])]
                if len(reasons) > 1 and reasons[1] == "ConditionalCheckFailed":
                    raise _unknown(ns, procedure_id) from exc
                if not reasons or reasons[0] != "ConditionalCheckFailed":
                    raise
                # this run was already counted for this procedure

    def delete(self, ns: Namespace, procedure_ids: Sequence[str]) -> int:
        deleted = 0
        with aws_errors("delete procedures"):
            for procedure_id in dict.fromkeys(procedure_ids):
                old = self._db.delete_item(
                    TableName=self._table, Key=self._key(ns, procedure_id), ReturnValues="ALL_OLD"
                ).get("Attributes")
                deleted += bool(old)
                for marker in query_all(
                    self._db,
                    TableName=self._table,
                    KeyConditionExpression="#pk = :pk AND begins_with(#sk, :prefix)",
                    ProjectionExpression="#pk, #sk",
                    ExpressionAttributeNames={"#pk": schema.PK, "#sk": schema.SK},
                    ExpressionAttributeValues=serialize(
                        {":pk": schema.agent_partition(ns), ":prefix": _applied_prefix(procedure_id)}
                    ),
                ):
                    self._db.delete_item(TableName=self._table, Key=marker)
        return deleted

    # ------------------------------------------------------------------ reads

    def get(self, ns: Namespace, procedure_id: str) -> Procedure | None:
        with aws_errors(f"read procedure {procedure_id!r}"):
            item = self._db.get_item(
                TableName=self._table, Key=self._key(ns, procedure_id), ConsistentRead=True
            ).get("Item")
        return self._procedure(item) if item else None

    def _query(self, ns: Namespace, **request: Any) -> list[Procedure]:
        names = {"#pk": schema.PK, **request.pop("names", {})}
        values = {":pk": schema.agent_partition(ns), **request.pop("values", {})}
        items = query_all(
            self._db,
            TableName=self._table,
            ConsistentRead=True,
            ExpressionAttributeNames=names,
            ExpressionAttributeValues=serialize(values),
            **request,
        )
        return [self._procedure(item) for item in items]

    def _with_status(self, ns: Namespace, task_type: str, status: ProcedureStatus) -> list[Procedure]:
        with aws_errors(f"read {status.value} procedures for {task_type!r}"):
            return self._query(
                ns,
                IndexName=schema.PROCEDURES_BY_TASK,
                KeyConditionExpression="#pk = :pk AND #ts = :ts",
                names={"#ts": schema.TASK_STATUS},
                values={":ts": task_status_key(task_type, status)},
            )

    def best(
        self, ns: Namespace, task_type: str, *, min_uses: int = 3, min_success_rate: float = 0.6
    ) -> Procedure | None:
        validated = self._with_status(ns, task_type, ProcedureStatus.VALIDATED)
        order = serving_order(validated, min_uses=min_uses, min_success_rate=min_success_rate)
        return order[0] if order else None

    def list(
        self, ns: Namespace, *, task_type: str | None = None, status: ProcedureStatus | None = None
    ) -> list[Procedure]:
        if task_type is not None and status is not None:
            found = self._with_status(ns, task_type, status)
        else:
            with aws_errors("list procedures"):
                found = self._query(
                    ns,
                    KeyConditionExpression="#pk = :pk AND begins_with(#sk, :proc)",
                    names={"#sk": schema.SK},
                    values={":proc": _PROC},
                )
            found = [
                p
                for p in found
                if (task_type is None or p.task_type == task_type) and (status is None or p.status == status)
            ]
        return sorted(found, key=lambda p: (p.created_at, p.procedure_id))
