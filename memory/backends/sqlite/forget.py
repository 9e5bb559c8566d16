"""Erasure in the SQLite backend: a whole tenant, or the runs a bad fact or procedure came from.

Deleting rows is not enough to make data unrecoverable from the file: SQLite leaves freed pages
with their old bytes, FTS5 keeps deleted terms in index segments until they are merged, and WAL
mode keeps copies of changed pages in the `-wal` file, and B-tree interior pages keep deleted
keys as dividers. A tenant erasure therefore turns on `secure_delete` (freed pages are zeroed),
merges the full-text indexes (`optimize`), checkpoints and truncates the WAL, and rebuilds the
file (`VACUUM`: it rewrites the whole file, fine for a rare erasure request).

Every table with a `tenant` column is covered, found from the schema itself, so a table a later
migration adds (telemetry, staged vectors, ...) is erased with the rest without changes here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from memory.backends.sqlite.schema import Database, scope_token
from memory.backends.sqlite.vectors import VectorIndexes
from memory.records import Fact, Namespace

# table -> the tier it belongs to in the returned counts (others are reported under their name)
_TIERS = {
    "episodes": "episodes",
    "facts": "facts",
    "procedures": "procedures",
    "confirmations": "confirmations",
}
_FTS = {"episodes": "episodes_fts", "facts": "facts_fts"}


def _tenant_tables(conn: sqlite3.Connection) -> list[str]:
    tables = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    )]
    found = []
    for table in tables:
        columns = {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}
        if "tenant" in columns:
            found.append(table)
    return found


def _placeholders(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


def _scrub_file(db: Database, conn: sqlite3.Connection) -> None:
    """After the deletes committed: merge FTS segments (dropping deleted terms) and fold the WAL
    back into the main file, so no copy of an erased page survives on disk."""
    with db.write() as tx:
        for fts in [*_FTS.values(), "episodes_names", "facts_names"]:
            tx.execute(f"INSERT INTO {fts} ({fts}) VALUES ('optimize')")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    # index pages keep deleted keys as dividers (tenant and run ids): rebuild the file
    conn.execute("VACUUM")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def forget_tenant(db: Database, tenant: str) -> dict[str, int]:
    """Delete every row of `tenant` from every table; returns rows removed per tier/table."""
    counts: dict[str, int] = {}
    with db.maintenance() as conn:
        conn.execute("PRAGMA secure_delete = ON")
        try:
            with db.write() as tx:
                for kind in ("episodes", "facts"):
                    rows = tx.execute(f"SELECT id, agent FROM {kind} WHERE tenant = ?" if kind == "episodes"
                                      else f"SELECT id, NULL FROM {kind} WHERE tenant = ?", (tenant,)).fetchall()
                    ids = [r[0] for r in rows]
                    for start in range(0, len(ids), 500):
                        chunk = ids[start:start + 500]
                        tx.execute(f"DELETE FROM {_FTS[kind]} WHERE rowid IN ({_placeholders(chunk)})", chunk)
                    scopes = {scope_token(kind, tenant, agent) if agent else scope_token(kind, tenant)
                              for _, agent in rows}
                    for scope in scopes:  # other processes' cached matrices reload
                        db.bump_generation(tx, scope)
                for table in _tenant_tables(tx):
                    removed = tx.execute(f'DELETE FROM "{table}" WHERE tenant = ?', (tenant,)).rowcount
                    key = _TIERS.get(table, table)
                    counts[key] = counts.get(key, 0) + max(removed, 0)
            _scrub_file(db, conn)
        finally:
            conn.execute("PRAGMA secure_delete = OFF")
    for tier in _TIERS.values():
        counts.setdefault(tier, 0)
    return counts


def forget_observations(db: Database, tenant: str, run_ids: Sequence[str]) -> int:
    """Remove what `run_ids` contributed to the tenant's confirmation log (every fact key)."""
    if not run_ids:
        return 0
    with db.write() as conn:
        return conn.execute(
            f"DELETE FROM confirmations WHERE tenant = ? AND run_id IN ({_placeholders(run_ids)})",
            (tenant, *run_ids),
        ).rowcount


def discard_fact_key(db: Database, tenant: str, fact_key: str) -> int:
    """Drop a fact key's whole observation history: it must be confirmed afresh to return."""
    with db.write() as conn:
        return conn.execute(
            "DELETE FROM confirmations WHERE tenant = ? AND fact_key = ?", (tenant, fact_key)
        ).rowcount


def tenant_run_ids(db: Database, tenant: str) -> set[str]:
    """Every run id the tenant's memory mentions (episodes, observations, procedure sources)."""
    runs: set[str] = set()
    with db.read() as conn:
        for sql in ("SELECT run_id FROM episodes WHERE tenant = ?",
                    "SELECT run_id FROM confirmations WHERE tenant = ?",
                    "SELECT run_id FROM procedure_runs WHERE tenant = ?",
                    "SELECT run_id FROM procedure_applications WHERE tenant = ?"):
            runs.update(r[0] for r in conn.execute(sql, (tenant,)))
        for (record,) in conn.execute("SELECT record FROM facts WHERE tenant = ?", (tenant,)):
            runs.update(Fact.model_validate_json(record).source_runs)
    return runs


class SqliteErasure:
    """The erasure operations `memory.forget` uses, bound to one SQLite memory file."""

    def __init__(self, db: Database, vectors: object = None) -> None:
        self._db = db
        self._vectors = vectors  # VectorIndexes: the tenant's index files go with its rows

    def forget_tenant(self, tenant: str) -> dict[str, int]:
        files = self._vectors.files_of(tenant) if isinstance(self._vectors, VectorIndexes) else []
        counts = forget_tenant(self._db, tenant)
        if isinstance(self._vectors, VectorIndexes):
            self._vectors.forget_tenant(tenant, files)
        return counts

    def tenant_run_ids(self, tenant: str) -> set[str]:
        return tenant_run_ids(self._db, tenant)

    def forget_observations(self, ns: Namespace, run_ids: Sequence[str]) -> int:
        return forget_observations(self._db, ns.tenant, run_ids)

    def discard_fact_key(self, ns: Namespace, fact_key: str) -> int:
        return discard_fact_key(self._db, ns.tenant, fact_key)
