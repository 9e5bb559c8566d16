"""Procedures in the SQLite backend: pending/validated state, source runs, atomic use counters.

Keyed by (tenant, agent). `record_application` changes the counters in one SQL statement
(`applications = applications + 1`), so threads and processes never lose a count; the success
rate is derived when read. Source runs live in their own table (INSERT OR IGNORE), so an
identical proposal from another run adds its run without a read-modify-write race.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime

from memory.backends.sqlite.schema import Database
from memory.errors import UnknownRecordError
from memory.records import Namespace, Procedure, ProcedureStatus
from memory.stores import serving_order


def _ts(moment: datetime) -> float:
    return moment.timestamp()


def _placeholders(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


class SqliteProcedureStore:
    _COLUMNS = ("procedure_id, task_type, status, title, steps, validated_by, applications, successes, "
                "created_at, updated_at")

    def __init__(self, db: Database) -> None:
        self._db = db

    def propose(self, ns: Namespace, procedure: Procedure) -> Procedure:
        """Insert as pending; an existing procedure with this id keeps its state and gains the runs."""
        with self._db.write() as conn:
            conn.execute(
                f"INSERT OR IGNORE INTO procedures (tenant, agent, {self._COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 0, 0, ?, ?)",
                (ns.tenant, ns.agent, procedure.procedure_id, procedure.task_type, ProcedureStatus.PENDING.value,
                 procedure.title, json.dumps(procedure.steps), _ts(procedure.created_at), _ts(procedure.updated_at)),
            )
            for run_id in procedure.source_runs:
                conn.execute(
                    "INSERT OR IGNORE INTO procedure_runs (tenant, agent, procedure_id, run_id, seq) VALUES "
                    "(?, ?, ?, ?, (SELECT count(*) FROM procedure_runs WHERE tenant = ? AND agent = ? "
                    "AND procedure_id = ?))",
                    (ns.tenant, ns.agent, procedure.procedure_id, run_id, ns.tenant, ns.agent, procedure.procedure_id),
                )
            found = self._fetch(conn, ns, "procedure_id = ?", (procedure.procedure_id,))
        return found[0]

    def _fetch(self, conn: sqlite3.Connection, ns: Namespace, where: str, params: tuple) -> list[Procedure]:
        rows = conn.execute(
            f"SELECT {self._COLUMNS} FROM procedures WHERE tenant = ? AND agent = ? AND {where} "
            "ORDER BY created_at, procedure_id",
            (ns.tenant, ns.agent, *params),
        ).fetchall()
        procedures = []
        for pid, task_type, status, title, steps, by, apps, wins, created, updated in rows:
            runs = [r[0] for r in conn.execute(
                "SELECT run_id FROM procedure_runs WHERE tenant = ? AND agent = ? AND procedure_id = ? ORDER BY seq",
                (ns.tenant, ns.agent, pid),
            )]
            procedures.append(Procedure(
                procedure_id=pid, task_type=task_type, status=ProcedureStatus(status), title=title,
                steps=json.loads(steps), validated_by=by, applications=apps, successes=wins, source_runs=runs,
                created_at=datetime.fromtimestamp(created, UTC), updated_at=datetime.fromtimestamp(updated, UTC),
            ))
        return procedures

    def get(self, ns: Namespace, procedure_id: str) -> Procedure | None:
        with self._db.snapshot() as conn:
            found = self._fetch(conn, ns, "procedure_id = ?", (procedure_id,))
        return found[0] if found else None

    def best(
        self, ns: Namespace, task_type: str, *, min_uses: int = 3, min_success_rate: float = 0.6
    ) -> Procedure | None:
        with self._db.snapshot() as conn:
            validated = self._fetch(
                conn, ns, "task_type = ? AND status = ?", (task_type, ProcedureStatus.VALIDATED.value)
            )
        order = serving_order(validated, min_uses=min_uses, min_success_rate=min_success_rate)
        return order[0] if order else None

    def list(
        self, ns: Namespace, *, task_type: str | None = None, status: ProcedureStatus | None = None
    ) -> list[Procedure]:
        where, params = "1 = 1", ()
        if task_type is not None:
            where, params = where + " AND task_type = ?", (*params, task_type)
        if status is not None:
            where, params = where + " AND status = ?", (*params, status.value)
        with self._db.snapshot() as conn:
            return self._fetch(conn, ns, where, params)

    def set_status(
        self, ns: Namespace, procedure_id: str, status: ProcedureStatus, *, by: str | None = None
    ) -> Procedure:
        with self._db.write() as conn:
            cursor = conn.execute(
                "UPDATE procedures SET status = ?, validated_by = CASE WHEN ? THEN ? ELSE validated_by END, "
                "updated_at = ? WHERE tenant = ? AND agent = ? AND procedure_id = ?",
                (status.value, status == ProcedureStatus.VALIDATED, by, _ts(datetime.now(UTC)),
                 ns.tenant, ns.agent, procedure_id),
            )
            if cursor.rowcount == 0:
                raise self._unknown(ns, procedure_id)
            return self._fetch(conn, ns, "procedure_id = ?", (procedure_id,))[0]

    def record_application(
        self, ns: Namespace, procedure_id: str, *, success: bool, run_id: str | None = None
    ) -> None:
        with self._db.write() as conn:
            now = _ts(datetime.now(UTC))
            if run_id is not None:
                exists = conn.execute(
                    "SELECT 1 FROM procedures WHERE tenant = ? AND agent = ? AND procedure_id = ?",
                    (ns.tenant, ns.agent, procedure_id),
                ).fetchone()
                if exists is None:
                    raise self._unknown(ns, procedure_id)
                first = conn.execute(
                    "INSERT OR IGNORE INTO procedure_applications (tenant, agent, procedure_id, run_id, success, "
                    "applied_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (ns.tenant, ns.agent, procedure_id, run_id, int(success), now),
                ).rowcount
                if not first:
                    return  # this run was already counted
            cursor = conn.execute(
                "UPDATE procedures SET applications = applications + 1, successes = successes + ?, "
                "updated_at = ? WHERE tenant = ? AND agent = ? AND procedure_id = ?",
                (int(success), now, ns.tenant, ns.agent, procedure_id),
            )
            if cursor.rowcount == 0:
                raise self._unknown(ns, procedure_id)

    @staticmethod
    def _unknown(ns: Namespace, procedure_id: str) -> UnknownRecordError:
        return UnknownRecordError(f"no procedure {procedure_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}")

    def delete(self, ns: Namespace, procedure_ids: Sequence[str]) -> int:
        if not procedure_ids:
            return 0
        marks = _placeholders(procedure_ids)
        with self._db.write() as conn:
            params = (ns.tenant, ns.agent, *procedure_ids)
            conn.execute(f"DELETE FROM procedure_runs WHERE tenant = ? AND agent = ? AND procedure_id IN ({marks})", params)
            conn.execute(
                f"DELETE FROM procedure_applications WHERE tenant = ? AND agent = ? AND procedure_id IN ({marks})", params
            )
            cursor = conn.execute(f"DELETE FROM procedures WHERE tenant = ? AND agent = ? AND procedure_id IN ({marks})", params)
            return cursor.rowcount
