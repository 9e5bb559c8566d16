"""The SQLite stores of the episodic and semantic tiers and the confirmation log."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime

from memory.backends.sqlite.schema import Database, scope_token
from memory.backends.sqlite.search import HybridIndex, TableSpec, VectorSource, as_blob, index_text
from memory.backends.sqlite.vectors import IndexKey, by_id_only
from memory.errors import UnknownRecordError
from memory.records import Episode, Fact, Namespace, Outcome, Scored
from memory.stores import VectorQuery


def _ts(moment: datetime) -> float:
    return moment.timestamp()


def _placeholders(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


__all__ = ["SqliteConfirmationLog", "SqliteEpisodeStore", "SqliteFactStore"]
RUN_COUNTER = "run-seq"  # the store's run counter: a row of the generations table (memory.clock)


class SqliteEpisodeStore:
    _SPEC = TableSpec(table="episodes", fts="episodes_fts", names="episodes_names",
                      attributes="expires_at, outcome = 'COMPLETED', created_at, NULL")

    def __init__(self, db: Database, vectors: VectorSource) -> None:
        self._db = db
        self._vectors = vectors
        self._index = HybridIndex(db, self._SPEC, vectors)

    @staticmethod
    def _key(ns: Namespace, model: str) -> IndexKey:
        return IndexKey("episodes", ns.tenant, ns.agent, model)

    @staticmethod
    def _scope(ns: Namespace) -> str:
        return scope_token("episodes", ns.tenant, ns.agent)

    def add(self, ns: Namespace, episode: Episode, vector: Sequence[float]) -> bool:
        blob = as_blob(vector)
        with self._db.write() as conn:
            # the run counter (memory.clock) moves in the episode's own transaction
            episode = episode.model_copy(update={"run_seq": self._db.generation(conn, RUN_COUNTER) + 1})
            cursor = conn.execute(
                "INSERT OR IGNORE INTO episodes (tenant, agent, run_id, task_type, outcome, created_at, "
                "expires_at, model, vector, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (ns.tenant, ns.agent, episode.run_id, episode.task_type, episode.outcome.value,
                 _ts(episode.created_at), _ts(episode.expires_at), episode.embedding_model, blob,
                 episode.model_dump_json()),
            )
            if cursor.rowcount == 0:
                return False
            self._db.bump_generation(conn, RUN_COUNTER)
            index_text(conn, "episodes", int(cursor.lastrowid or 0), self._scope(ns), episode.embedding_text())
        self._vectors.after_write(self._key(ns, episode.embedding_model))
        return True

    def get(self, ns: Namespace, run_id: str) -> Episode | None:
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT record FROM episodes WHERE tenant = ? AND agent = ? AND run_id = ?",
                (ns.tenant, ns.agent, run_id),
            ).fetchone()
        return Episode.model_validate_json(row[0]) if row else None

    def search(self, ns: Namespace, query: VectorQuery) -> list[Scored[Episode]]:
        hits = self._index.search(self._scope(ns), self._key(ns, query.embedding_model), query)
        return [Scored[Episode](item=episode, score=score) for episode, score in self._load(ns, hits)]

    def _load(self, ns: Namespace, hits: list[tuple[int, float]]) -> list[tuple[Episode, float]]:
        if not hits:
            return []
        ids = [row_id for row_id, _ in hits]
        with self._db.read() as conn:
            rows = dict(conn.execute(
                f"SELECT id, record FROM episodes WHERE id IN ({_placeholders(ids)}) AND {by_id_only('tenant')} = ? "
                f"AND {by_id_only('agent')} = ?",
                (*ids, ns.tenant, ns.agent),
            ).fetchall())
        return [(Episode.model_validate_json(rows[i]), score) for i, score in hits if i in rows]

    def list(self, ns: Namespace, *, limit: int = 50, outcome: Outcome | None = None) -> list[Episode]:
        sql = "SELECT record FROM episodes WHERE tenant = ? AND agent = ?"
        params: list[object] = [ns.tenant, ns.agent]
        if outcome is not None:
            sql += " AND outcome = ?"
            params.append(outcome.value)
        with self._db.read() as conn:
            rows = conn.execute(sql + " ORDER BY created_at DESC, id DESC LIMIT ?", (*params, limit)).fetchall()
        return [Episode.model_validate_json(r[0]) for r in rows]

    def delete(self, ns: Namespace, run_ids: Sequence[str]) -> int:
        if not run_ids:
            return 0
        with self._db.write() as conn:
            ids = [r[0] for r in conn.execute(
                f"SELECT id FROM episodes WHERE tenant = ? AND agent = ? AND run_id IN ({_placeholders(run_ids)})",
                (ns.tenant, ns.agent, *run_ids),
            )]
            if ids:
                conn.execute(f"DELETE FROM episodes WHERE id IN ({_placeholders(ids)})", ids)
                conn.execute(f"DELETE FROM episodes_fts WHERE rowid IN ({_placeholders(ids)})", ids)
                self._db.bump_generation(conn, self._scope(ns))
            return len(ids)

    def retime(self, ns: Namespace, run_id: str, created_at: datetime, expires_at: datetime) -> bool:
        """Re-date an episode (decay's clamp of a timestamp written by a clock running ahead)."""
        with self._db.write() as conn:
            found = self._stored(conn, ns, run_id)
            if found is None:
                return False
            row_id, episode = found
            episode = episode.model_copy(update={"created_at": created_at, "expires_at": expires_at})
            conn.execute("UPDATE episodes SET created_at = ?, expires_at = ?, record = ? WHERE id = ?",
                         (_ts(created_at), _ts(expires_at), episode.model_dump_json(), row_id))
            self._db.bump_generation(conn, self._scope(ns))
        return True

    def record_merge(self, ns: Namespace, run_id: str, merged: Sequence[str]) -> Episode:
        """Add `merged` run ids to the episode's `merged_from` (decay's near-duplicate merge)."""
        with self._db.write() as conn:
            found = self._stored(conn, ns, run_id)
            if found is None:
                raise UnknownRecordError(f"no episode {run_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}")
            row_id, episode = found
            episode.merged_from = list(dict.fromkeys([*episode.merged_from, *merged]))
            conn.execute("UPDATE episodes SET record = ? WHERE id = ?", (episode.model_dump_json(), row_id))
        return episode

    @staticmethod
    def _stored(conn: sqlite3.Connection, ns: Namespace, run_id: str) -> tuple[int, Episode] | None:
        """The row id and record of an episode, read inside a write transaction."""
        row = conn.execute(
            "SELECT id, record FROM episodes WHERE tenant = ? AND agent = ? AND run_id = ?",
            (ns.tenant, ns.agent, run_id),
        ).fetchone()
        return (int(row[0]), Episode.model_validate_json(row[1])) if row else None


class SqliteFactStore:
    """Facts are tenant-wide: `ns.agent` is ignored, every agent of the tenant shares them."""

    _SPEC = TableSpec(table="facts", fts="facts_fts", names="facts_names", attributes="NULL, 0, updated_at, domain")

    def __init__(self, db: Database, vectors: VectorSource) -> None:
        self._db = db
        self._vectors = vectors
        self._index = HybridIndex(db, self._SPEC, vectors)

    @staticmethod
    def _key(ns: Namespace, model: str) -> IndexKey:
        return IndexKey("facts", ns.tenant, "", model)

    @staticmethod
    def _scope(ns: Namespace) -> str:
        return scope_token("facts", ns.tenant)

    def put(self, ns: Namespace, fact: Fact, vector: Sequence[float]) -> None:
        blob = as_blob(vector)
        with self._db.write() as conn:
            old = conn.execute(
                "SELECT id FROM facts WHERE tenant = ? AND fact_id = ?", (ns.tenant, fact.fact_id)
            ).fetchone()
            if old:  # replace = delete + insert, so cached matrices reload (generation bump)
                conn.execute("DELETE FROM facts WHERE id = ?", old)
                conn.execute("DELETE FROM facts_fts WHERE rowid = ?", old)
                self._db.bump_generation(conn, self._scope(ns))
            cursor = conn.execute(
                "INSERT INTO facts (tenant, fact_id, domain, updated_at, model, vector, record) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (ns.tenant, fact.fact_id, fact.domain, _ts(fact.updated_at), fact.embedding_model, blob,
                 fact.model_dump_json()),
            )
            index_text(conn, "facts", int(cursor.lastrowid or 0), self._scope(ns), fact.text)
        self._vectors.after_write(self._key(ns, fact.embedding_model))

    def get(self, ns: Namespace, fact_id: str) -> Fact | None:
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT record FROM facts WHERE tenant = ? AND fact_id = ?", (ns.tenant, fact_id)
            ).fetchone()
        return Fact.model_validate_json(row[0]) if row else None

    def search(self, ns: Namespace, query: VectorQuery) -> list[Scored[Fact]]:
        hits = self._index.search(self._scope(ns), self._key(ns, query.embedding_model), query)
        if not hits:
            return []
        ids = [row_id for row_id, _ in hits]
        with self._db.read() as conn:
            rows = dict(conn.execute(
                f"SELECT id, record FROM facts WHERE id IN ({_placeholders(ids)}) AND {by_id_only('tenant')} = ?",
                (*ids, ns.tenant),
            ).fetchall())
        return [Scored[Fact](item=Fact.model_validate_json(rows[i]), score=s) for i, s in hits if i in rows]

    def list(self, ns: Namespace, *, domain: str | None = None, limit: int = 50) -> list[Fact]:
        sql = "SELECT record FROM facts WHERE tenant = ?"
        params: list[object] = [ns.tenant]
        if domain is not None:
            sql += " AND domain = ?"
            params.append(domain)
        with self._db.read() as conn:
            rows = conn.execute(sql + " ORDER BY updated_at DESC, id DESC LIMIT ?", (*params, limit)).fetchall()
        return [Fact.model_validate_json(r[0]) for r in rows]

    def delete(self, ns: Namespace, fact_ids: Sequence[str]) -> int:
        if not fact_ids:
            return 0
        with self._db.write() as conn:
            ids = [r[0] for r in conn.execute(
                f"SELECT id FROM facts WHERE tenant = ? AND fact_id IN ({_placeholders(fact_ids)})",
                (ns.tenant, *fact_ids),
            )]
            if ids:
                conn.execute(f"DELETE FROM facts WHERE id IN ({_placeholders(ids)})", ids)
                conn.execute(f"DELETE FROM facts_fts WHERE rowid IN ({_placeholders(ids)})", ids)
                self._db.bump_generation(conn, self._scope(ns))
            return len(ids)


class SqliteConfirmationLog:
    """Tenant-wide, like the facts it gates: runs of any agent of the tenant confirm together."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def observe(self, ns: Namespace, fact_key: str, run_id: str, source: str | None = None) -> int:
        with self._db.write() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO confirmations (tenant, fact_key, run_id, observed_at, source) "
                "VALUES (?, ?, ?, ?, ?)",
                (ns.tenant, fact_key, run_id, _ts(datetime.now(UTC)), source),
            )
            row = conn.execute(
                "SELECT count(DISTINCT coalesce(source, run_id)) FROM confirmations WHERE tenant = ? AND fact_key = ?",
                (ns.tenant, fact_key),
            ).fetchone()
        return int(row[0])

    def runs(self, ns: Namespace, fact_key: str) -> list[str]:
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT run_id FROM confirmations WHERE tenant = ? AND fact_key = ? ORDER BY observed_at, run_id",
                (ns.tenant, fact_key),
            ).fetchall()
        return [r[0] for r in rows]
