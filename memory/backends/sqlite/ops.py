"""Operating the SQLite backend over months: retrieval telemetry and re-embedding.

Telemetry is one row per (namespace, run, tier) in `retrievals`. Re-embedding keeps the new
model's vector of each row in `staged_vectors` (keyed by the row id, so a fact replaced since is
simply pending again); `switch` moves a whole tenant in one transaction and bumps the search
generations, so every process drops its cached matrices: retrieval sees only old vectors
before, only new ones after.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

from memory.backends.sqlite.schema import Database, scope_token
from memory.backends.sqlite.search import as_blob
from memory.records import Episode, Fact, Namespace
from memory.reembed import Kind, PendingVector, ReembedProgress, SwitchResult
from memory.telemetry import Hit, RetrievalEvent

_PAGE = 256
# kind -> (table, the text its vector embeds, from the stored record)
_KINDS: dict[str, tuple[str, object]] = {
    "episodes": ("episodes", lambda record: Episode.model_validate_json(record).embedding_text()),
    "facts": ("facts", lambda record: Fact.model_validate_json(record).text),
}


class SqliteTelemetry:
    def __init__(self, db: Database) -> None:
        self._db = db

    def record(self, ns: Namespace, event: RetrievalEvent) -> None:
        hits = json.dumps([h.model_dump() for h in event.hits])
        with self._db.write() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO retrievals (tenant, agent, run_id, tier, at, latency_ms, hits) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (ns.tenant, ns.agent, event.run_id, event.tier, event.at.timestamp(), event.latency_ms, hits),
            )

    def events(self, ns: Namespace, *, since: datetime) -> list[RetrievalEvent]:
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT run_id, tier, at, latency_ms, hits FROM retrievals WHERE tenant = ? AND agent = ? "
                "AND at >= ? ORDER BY at, run_id, tier",
                (ns.tenant, ns.agent, since.timestamp()),
            ).fetchall()
        return [
            RetrievalEvent(run_id=run_id, tier=tier, at=datetime.fromtimestamp(at, UTC), latency_ms=latency,
                           hits=[Hit.model_validate(h) for h in json.loads(hits)])
            for run_id, tier, at, latency, hits in rows
        ]

    def count_before(self, ns: Namespace, cutoff: datetime) -> int:
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT count(*) FROM retrievals WHERE tenant = ? AND agent = ? AND at < ?",
                (ns.tenant, ns.agent, cutoff.timestamp()),
            ).fetchone()
        return int(row[0])

    def prune(self, ns: Namespace, cutoff: datetime) -> int:
        with self._db.write() as conn:
            return conn.execute(
                "DELETE FROM retrievals WHERE tenant = ? AND agent = ? AND at < ?",
                (ns.tenant, ns.agent, cutoff.timestamp()),
            ).rowcount


class SqliteReembedding:
    """`memory.reembed.Reembeddable` over the SQLite file."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def tenants(self) -> list[str]:
        with self._db.read() as conn:
            rows = conn.execute("SELECT tenant FROM episodes UNION SELECT tenant FROM facts ORDER BY 1").fetchall()
        return [r[0] for r in rows]

    def pending(self, tenant: str, model: str) -> Iterator[PendingVector]:
        for kind, (table, text_of) in _KINDS.items():
            after = 0
            while True:  # page by id, releasing the lock between pages
                with self._db.read() as conn:
                    rows = conn.execute(
                        f"SELECT t.id, t.record FROM {table} t LEFT JOIN staged_vectors s "
                        "ON s.kind = ? AND s.row_id = t.id AND s.model = ? "
                        "WHERE t.tenant = ? AND t.model != ? AND s.row_id IS NULL AND t.id > ? ORDER BY t.id LIMIT ?",
                        (kind, model, tenant, model, after, _PAGE),
                    ).fetchall()
                if not rows:
                    break
                for row_id, record in rows:
                    yield PendingVector(kind=kind, key=str(row_id), text=text_of(record))  # type: ignore[operator]
                after = rows[-1][0]

    def stage(self, tenant: str, model: str, vectors: list[tuple[PendingVector, list[float]]]) -> int:
        staged = 0
        with self._db.write() as conn:
            for pending, vector in vectors:
                table = _KINDS[pending.kind][0]
                exists = conn.execute(
                    f"SELECT 1 FROM {table} WHERE id = ? AND tenant = ?", (int(pending.key), tenant)
                ).fetchone()
                if exists is None:
                    continue  # deleted (or replaced under a new id) since it was listed
                conn.execute(
                    "INSERT OR REPLACE INTO staged_vectors (kind, row_id, tenant, model, vector) VALUES (?, ?, ?, ?, ?)",
                    (pending.kind, int(pending.key), tenant, model, as_blob(vector)),
                )
                staged += 1
        return staged

    def progress(self, tenant: str, model: str) -> ReembedProgress:
        total = on_model = staged = 0
        with self._db.snapshot() as conn:
            for kind, (table, _) in _KINDS.items():
                t, live, aside = conn.execute(
                    f"SELECT count(*), sum(t.model = ?), sum(s.row_id IS NOT NULL AND t.model != ?) FROM {table} t "
                    "LEFT JOIN staged_vectors s ON s.kind = ? AND s.row_id = t.id AND s.model = ? WHERE t.tenant = ?",
                    (model, model, kind, model, tenant),
                ).fetchone()
                total, on_model, staged = total + t, on_model + (live or 0), staged + (aside or 0)
        return ReembedProgress(tenant=tenant, model=model, total=total, on_model=on_model, staged=staged)

    def switch(self, tenant: str, model: str) -> SwitchResult:
        """All or nothing, in one transaction."""
        switched = 0
        with self._db.write() as conn:
            missing = 0
            for kind, (table, _) in _KINDS.items():
                missing += conn.execute(
                    f"SELECT count(*) FROM {table} t LEFT JOIN staged_vectors s "
                    "ON s.kind = ? AND s.row_id = t.id AND s.model = ? "
                    "WHERE t.tenant = ? AND t.model != ? AND s.row_id IS NULL",
                    (kind, model, tenant, model),
                ).fetchone()[0]
            if missing:
                return SwitchResult(switched=0, missing=missing)  # the transaction changed nothing
            for kind, (table, _) in _KINDS.items():
                switched += conn.execute(
                    f"UPDATE {table} SET model = ?, record = json_set(record, '$.embedding_model', ?), "
                    "vector = (SELECT s.vector FROM staged_vectors s WHERE s.kind = ? AND s.row_id = "
                    f"{table}.id AND s.model = ?) WHERE tenant = ? AND model != ?",
                    (model, model, kind, model, tenant, model),
                ).rowcount
            conn.execute("DELETE FROM staged_vectors WHERE tenant = ?", (tenant,))
            scopes = [scope_token("episodes", tenant, agent) for (agent,) in conn.execute(
                "SELECT DISTINCT agent FROM episodes WHERE tenant = ?", (tenant,))]
            for scope in [*scopes, scope_token("facts", tenant)]:
                self._db.bump_generation(conn, scope)  # every process reloads its matrices
        return SwitchResult(switched=switched, missing=0)


__all__ = ["Kind", "SqliteReembedding", "SqliteTelemetry"]
