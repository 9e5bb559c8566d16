"""Procedures in a LangGraph store: the record, its source runs, and one item per use.

A `BaseStore` has no atomic increment and no conditional write, so nothing here is a counter:
each application is an item of its own (keyed by the run id when the run is named, so a retried
consolidation writes the same key again; else by a fresh uuid), and `applications`/`successes`
are counted from those items when a procedure is read. Concurrent writers write different keys
and cannot lose each other's update. Source runs are items too, so two runs proposing the same
steps at once both stay on record. The procedure's own item changes only when a person (or the
trial rule) changes its status; its `updated_at` as read is the later of that change and the
last use, so a use never rewrites the record and cannot undo a concurrent status change.

Reading a procedure reads its uses: one store page per 1,000 (docs/GRAPH.md, "no atomic increment").
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from memory.backends.store.layout import (
    every_item,
    procedure_runs_ns,
    procedure_uses_ns,
    procedures_ns,
)
from memory.errors import UnknownRecordError
from memory.records import Namespace, Procedure, ProcedureStatus
from memory.stores import serving_order

_COUNTED = {"applications", "successes", "source_runs"}


class StoreProcedureStore:
    def __init__(self, store: Any) -> None:
        self._store = store

    def propose(self, ns: Namespace, procedure: Procedure) -> Procedure:
        """Insert as pending; an existing procedure with this id keeps its state and gains the runs."""
        namespace = procedures_ns(ns)
        if self._store.get(namespace, procedure.procedure_id) is None:
            record = procedure.model_copy(update={"status": ProcedureStatus.PENDING, "validated_by": None})
            self._put_record(ns, record)
        runs = procedure_runs_ns(ns, procedure.procedure_id)
        for run_id in procedure.source_runs:
            if self._store.get(runs, run_id) is None:
                self._store.put(runs, run_id, {"seq": time.time_ns()}, index=False)
        return self._require(ns, procedure.procedure_id)

    def _put_record(self, ns: Namespace, procedure: Procedure) -> None:
        value = {
            "record": procedure.model_dump(mode="json", exclude=_COUNTED),
            "task_type": procedure.task_type, "status": procedure.status.value,
        }
        self._store.put(procedures_ns(ns), procedure.procedure_id, value, index=False)

    def _load(self, ns: Namespace, item: Any) -> Procedure:
        procedure = Procedure.model_validate(item.value["record"])
        uses = list(every_item(self._store, procedure_uses_ns(ns, procedure.procedure_id)))
        runs = sorted(every_item(self._store, procedure_runs_ns(ns, procedure.procedure_id)),
                      key=lambda run: (run.value["seq"], run.key))
        last_use = max((use.value["at"] for use in uses), default=0.0)
        updated = max(procedure.updated_at, datetime.fromtimestamp(last_use, UTC))
        return procedure.model_copy(update={
            "applications": len(uses), "successes": sum(1 for use in uses if use.value["success"]),
            "source_runs": [run.key for run in runs], "updated_at": updated,
        })

    def get(self, ns: Namespace, procedure_id: str) -> Procedure | None:
        item = self._store.get(procedures_ns(ns), procedure_id)
        return self._load(ns, item) if item else None

    def _require(self, ns: Namespace, procedure_id: str) -> Procedure:
        found = self.get(ns, procedure_id)
        if found is None:
            raise UnknownRecordError(f"no procedure {procedure_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}")
        return found

    def best(
        self, ns: Namespace, task_type: str, *, min_uses: int = 3, min_success_rate: float = 0.6
    ) -> Procedure | None:
        validated = self.list(ns, task_type=task_type, status=ProcedureStatus.VALIDATED)
        order = serving_order(validated, min_uses=min_uses, min_success_rate=min_success_rate)
        return order[0] if order else None

    def list(
        self, ns: Namespace, *, task_type: str | None = None, status: ProcedureStatus | None = None
    ) -> list[Procedure]:
        where: dict[str, Any] = {}
        if task_type is not None:
            where["task_type"] = task_type
        if status is not None:
            where["status"] = status.value
        procedures = [self._load(ns, item) for item in every_item(self._store, procedures_ns(ns), filter=where or None)]
        return sorted(procedures, key=lambda p: (p.created_at, p.procedure_id))

    def set_status(
        self, ns: Namespace, procedure_id: str, status: ProcedureStatus, *, by: str | None = None
    ) -> Procedure:
        item = self._store.get(procedures_ns(ns), procedure_id)
        if item is None:
            raise UnknownRecordError(f"no procedure {procedure_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}")
        record = Procedure.model_validate(item.value["record"])
        changes: dict[str, Any] = {"status": status, "updated_at": datetime.now(UTC)}
        if status == ProcedureStatus.VALIDATED:
            changes["validated_by"] = by
        self._put_record(ns, record.model_copy(update=changes))
        return self._require(ns, procedure_id)

    def record_application(
        self, ns: Namespace, procedure_id: str, *, success: bool, run_id: str | None = None
    ) -> None:
        if self._store.get(procedures_ns(ns), procedure_id) is None:
            raise UnknownRecordError(f"no procedure {procedure_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}")
        uses = procedure_uses_ns(ns, procedure_id)
        if run_id is not None and self._store.get(uses, run_id) is not None:
            return  # this run was already counted
        key = run_id if run_id is not None else f"u-{uuid.uuid4().hex}"
        self._store.put(uses, key, {"success": bool(success), "at": time.time()}, index=False)

    def delete(self, ns: Namespace, procedure_ids: Sequence[str]) -> int:
        deleted = 0
        for procedure_id in dict.fromkeys(procedure_ids):
            if self._store.get(procedures_ns(ns), procedure_id) is None:
                continue
            for namespace in (procedure_uses_ns(ns, procedure_id), procedure_runs_ns(ns, procedure_id)):
                for item in list(every_item(self._store, namespace)):
                    self._store.delete(namespace, item.key)
            self._store.delete(procedures_ns(ns), procedure_id)
            deleted += 1
        return deleted
