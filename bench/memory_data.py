"""Synthetic memory at scale for the latency benchmarks, bulk-loaded through the SQLite schema.

Episodes and facts go straight into the backend's own tables in large transactions, with the
backend's own helpers (`scope_token`, `as_blob`, `index_text`), so the rows are exactly what the
agent writes, minus one transaction per row. Own-tenant vectors are real WordLlama embeddings of
each row's text; other tenants' rows have their own generated texts (they load the shared tables
and full-text index) and reuse own vectors, since no search of the own tenant ever reads them.
The data grows in place between sizes (1k -> 10k -> 100k); `fill.json` records what is there.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache, partial
from pathlib import Path

import numpy as np

from memory.records import Episode, Fact, Namespace, Outcome, Procedure, ProcedureStatus

PREFIXES = ["North", "Blue", "Iron", "Silver", "Harbor", "Summit", "Cedar", "Granite", "Pioneer", "Falcon",
            "Maple", "Quantum", "Atlas", "Crescent", "Vertex", "Orchid", "Beacon", "Redwood", "Lumen", "Coastal",
            "Everest", "Juniper", "Sterling", "Aurora", "Meridian", "Tidal", "Copper", "Willow", "Zenith", "Harvest"]
SUFFIXES = ["wind Components", "field Logistics", "gate Analytics", "stone Foods", "bridge Castings",
            "line Software", "point Medical", "crest Engineering", "ridge Chemicals", "view Hotels",
            "wood Packaging", "dale Energy", "brook Textiles", "port Freight", "haven Security"]
KINDS = ["master supply agreement", "SaaS subscription", "logistics services contract", "maintenance and support contract",
         "manufacturing supply agreement", "consulting services agreement", "software licence", "equipment lease"]
CLAUSES = ["liability_cap", "payment_terms", "auto_renewal", "price_changes", "termination_convenience",
           "governing_law", "insurance", "audit_rights", "data_protection", "exclusivity", "warranty",
           "minimum_commitment", "confidentiality", "liquidated_damages", "assignment", "non_compete"]
VERDICTS = ["deviation (high)", "deviation (medium)", "fallback (low)", "missing (medium)"]
FACT_TEMPLATES = [
    "{kind} contracts from {party} usually put the {clause} clause in section {sec}",
    "A {clause} position below the playbook in a {kind} is a red flag when the fees exceed {amount}",
    "{party} accepts a {clause} fallback after one round of negotiation",
    "In {kind} filings the {clause} clause often sits under a different heading than its title",
]


def party(rng: random.Random) -> str:
    return f"{rng.choice(PREFIXES)}{rng.choice(SUFFIXES)}"


def contract_ref(i: int, tenant_index: int) -> str:
    return f"SC-{tenant_index:02d}{i:06d}"


@dataclass(frozen=True)
class EpisodeSpec:
    """What a generated episode says (the query generator reuses it)."""

    index: int
    party: str
    kind: str
    ref: str
    findings: list[str]

    def summary(self) -> str:
        return f"Review the {self.party} {self.kind} {self.ref} (supplier_contract_review)"


def episode_spec(i: int, tenant_index: int) -> EpisodeSpec:
    rng = random.Random(tenant_index * 10_000_019 + i)
    findings = [f"{c} in section {rng.randint(2, 24)}.{rng.randint(1, 9)}: {rng.choice(VERDICTS)}"
                for c in rng.sample(CLAUSES, 3)]
    return EpisodeSpec(i, party(rng), rng.choice(KINDS), contract_ref(i, tenant_index), findings)


@dataclass(frozen=True)
class Timeline:
    """Episodes are spread over the 80 days before `anchor`, oldest first; all unexpired."""

    anchor: datetime
    capacity: int  # the largest size: index -> time is fixed, so data grows without moving

    def created(self, i: int) -> datetime:
        span = timedelta(days=80)
        return self.anchor - span + span * (i / max(1, self.capacity))


def _episodes(tenant_index: int, start: int, stop: int, model: str, timeline: Timeline) -> Iterator[Episode]:
    for i in range(start, stop):
        spec = episode_spec(i, tenant_index)
        created = timeline.created(i)
        yield Episode(run_id=f"bench-{tenant_index:02d}-{i:07d}", task_type="supplier_contract_review",
                      task_summary=spec.summary(), outcome=Outcome.FAILED if i % 10 == 0 else Outcome.COMPLETED,
                      key_findings=spec.findings, approach="list sections, assess each clause type, record findings",
                      tools_used=["list_sections", "assess_clause", "record_finding"], step_count=9,
                      created_at=created, expires_at=created + timedelta(days=90), embedding_model=model)


@lru_cache(maxsize=65_536)
def _line_identifiers(line: str) -> frozenset[str]:
    from memory.retrieval import identifiers

    return frozenset(identifiers(line))


_REF = re.compile(r"\bSC-\d{8}\b")  # contract_ref's shape
_REF_STAND_IN = "SC-00000000"


def _summary_identifiers(summary: str) -> frozenset[str]:
    """A task summary's identifiers: the summary with its contract reference replaced is one of a
    few thousand (cached), and the reference, a code standing alone, is one identifier of its own."""
    refs = _REF.findall(summary)
    if len(refs) != 1:
        return _line_identifiers(summary)
    from memory.retrieval import identifiers

    rest = _line_identifiers(summary.replace(refs[0], _REF_STAND_IN)) - _line_identifiers(_REF_STAND_IN)
    return rest | identifiers(refs[0])


def episode_identifiers(episode: Episode) -> str:
    """The `idents` column `index_text` writes for an episode's embedding text, computed line by
    line (each line starts a sentence, so the union equals `identifiers(text)`; a test checks it)
    with the finite set of finding lines and summary shapes cached."""
    found = set(_summary_identifiers(episode.task_summary))
    for line in episode.key_findings:
        found |= _line_identifiers(line)
    return " ".join(sorted(found))


_INSERT_EPISODES = ("INSERT INTO episodes (id, tenant, agent, run_id, task_type, outcome, created_at, expires_at, "
                    "model, vector, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
CHECK_EVERY = 997  # the loader recomputes this share of identifier strings the slow way and compares


def own_episode_rows(tenant_index: int, lo: int, hi: int, embeddings, timeline: Timeline) -> tuple[list, list, list]:
    """Episodes [lo, hi) of a tenant as (episodes-table values after id, tenant and agent; embedding
    texts; identifier strings), with real embeddings of each text (a worker's batch)."""
    from memory.backends.sqlite.search import as_blob
    from memory.embeddings import model_name_of
    from memory.retrieval import identifiers

    model = model_name_of(embeddings)
    episodes = list(_episodes(tenant_index, lo, hi, model, timeline))
    texts = [e.embedding_text() for e in episodes]
    vectors = np.asarray(embeddings.embed_documents(texts), dtype=np.float32)
    values = [(e.run_id, e.task_type, e.outcome.value, e.created_at.timestamp(), e.expires_at.timestamp(), model,
               as_blob(v), e.model_dump_json()) for e, v in zip(episodes, vectors, strict=True)]
    idents = [episode_identifiers(e) for e in episodes]
    for n in range(-lo % CHECK_EVERY, len(texts), CHECK_EVERY):
        if idents[n] != " ".join(sorted(identifiers(texts[n]))):
            raise RuntimeError(f"bulk loader: identifiers of {episodes[n].run_id} differ from index_text's")
    return values, texts, idents


def insert_episodes(writer, ns: Namespace, tenant_index: int, start: int, stop: int, embeddings, timeline: Timeline,
                    *, keep: int = 0, batch: int = 10_000) -> list[bytes]:
    """Bulk-insert episodes [start, stop) of one namespace with real embeddings (the own tenant),
    one transaction per batch, generated and embedded in worker processes (`bulk_load.in_workers`);
    returns the first `keep` vector blobs (other tenants reuse them)."""
    from bench.bulk_load import in_workers
    from memory.backends.sqlite.schema import scope_token
    from memory.backends.sqlite.search import index_rows

    scope = scope_token("episodes", ns.tenant, ns.agent)
    kept: list[bytes] = []
    produce = partial(own_episode_rows, tenant_index, embeddings=embeddings, timeline=timeline)
    for values, texts, idents in in_workers(produce, start, stop, batch):
        if len(kept) < keep:
            kept += [row[6] for row in values[:keep - len(kept)]]
        with writer.write() as conn:
            next_id = writer.next_id("episodes")
            seq = writer.take_run_seqs(conn, len(values))
            with writer.timed("episode rows"):
                conn.executemany(_INSERT_EPISODES, [(next_id + n, ns.tenant, ns.agent, *row[:-1], with_run_seq(row[-1], seq + n))
                                                    for n, row in enumerate(values)])
            with writer.timed("episode text index"):
                index_rows(conn, "episodes", [(next_id + n, scope, text, ident)
                                              for n, (text, ident) in enumerate(zip(texts, idents, strict=True))])
        writer.added(len(values))
    return kept


_NO_SEQ = '"run_seq":0,'


def with_run_seq(record: str, seq: int) -> str:
    """An episode's stored JSON with the run counter the store gives it (generated as 0)."""
    if _NO_SEQ not in record:
        raise RuntimeError("bulk loader: an episode record without its run counter field")
    return record.replace(_NO_SEQ, f'"run_seq":{seq},', 1)


_POOLS: dict[tuple, tuple[list[str], list[str], list[str]]] = {}
_RUN, _CREATED, _EXPIRES = "@run@", '"@created@"', '"@expires@"'


def _json(value: object) -> str:
    from pydantic_core import to_json

    return to_json(value).decode()


def _other_pool(tenant_index: int, model: str, size: int, anchor: datetime) -> tuple[list[str], list[str], list[str]]:
    """(texts, identifier strings, record JSON templates) of one other tenant, built once. A
    template is the episode's `model_dump_json()` (what the store writes) with its run id and
    times left open."""

    key = (tenant_index, model, size)
    if key not in _POOLS:
        pool = list(_episodes(tenant_index, 0, size, model, Timeline(anchor, size)))
        texts = [e.embedding_text() for e in pool]
        idents = [episode_identifiers(e) for e in pool]
        templates = [e.model_copy(update={"run_id": _RUN}).model_dump_json()
                     .replace(_json(e.created_at), _CREATED, 1).replace(_json(e.expires_at), _EXPIRES, 1)
                     for e in pool]
        _POOLS[key] = (texts, idents, templates)
    return _POOLS[key]


def insert_other_episodes(writer, ns: Namespace, tenant_index: int, start: int, stop: int, model: str,
                          timeline: Timeline, vector_pool: list[bytes], pool_size: int = 2_000,
                          batch: int = 50_000) -> None:
    """Other tenants' episodes, fast: texts cycle through a pool of `pool_size` generated ones
    (their identifiers computed once by the backend's `identifiers`), vectors through `vector_pool`
    (unit-length blobs), rows written with executemany and explicit row ids. They load the shared
    tables and the full-text index exactly as real rows of another tenant do."""
    from memory.backends.sqlite.schema import scope_token
    from memory.backends.sqlite.search import index_rows

    scope = scope_token("episodes", ns.tenant, ns.agent)
    texts, idents, templates = _other_pool(tenant_index, model, pool_size, timeline.anchor)
    ttl = timedelta(days=90)
    for lo in range(start, stop, batch):
        hi = min(stop, lo + batch)
        with writer.write() as conn:
            next_id = writer.next_id("episodes")
            seq = writer.take_run_seqs(conn, hi - lo)
            rows, fts = [], []
            for offset, i in enumerate(range(lo, hi)):
                p = i % len(texts)
                created = timeline.created(i)
                expires = created + ttl  # as `_episodes` makes them, so the columns match the record
                run_id = f"bench-{tenant_index:02d}-{i:07d}"
                record = (templates[p].replace(_RUN, run_id, 1).replace(_CREATED, _json(created), 1)
                          .replace(_EXPIRES, _json(expires), 1))
                record = with_run_seq(record, seq + offset)
                row_id = next_id + offset
                rows.append((row_id, ns.tenant, ns.agent, run_id, "supplier_contract_review",
                             "FAILED" if i % 10 == 0 else "COMPLETED", created.timestamp(), expires.timestamp(), model,
                             vector_pool[i % len(vector_pool)], record))
                fts.append((row_id, scope, texts[p], idents[p]))
            with writer.timed("episode rows"):
                conn.executemany(_INSERT_EPISODES, rows)
            with writer.timed("episode text index"):
                index_rows(conn, "episodes", fts)
        writer.added(len(rows))


def _fact_text(tenant_index: int, i: int) -> str:
    rng = random.Random(tenant_index * 7_000_003 + i)
    text = rng.choice(FACT_TEMPLATES).format(
        kind=rng.choice(KINDS), party=party(rng), clause=rng.choice(CLAUSES).replace("_", " "),
        sec=f"{rng.randint(2, 24)}.{rng.randint(1, 9)}", amount=f"USD {rng.randint(1, 90) * 10_000:,}")
    return f"{text} (#{i})"


def insert_facts(writer, ns: Namespace, tenant_index: int, count: int, embeddings, domain: str, written_at: datetime,
                 vector_pool: np.ndarray | None = None, batch: int = 20_000, pool_size: int = 2_000) -> None:
    """Facts of one tenant. Own facts (no `vector_pool`): unique texts, real embeddings. Other
    tenants: texts cycle through a pool of `pool_size`, vectors through `vector_pool`."""
    from memory.backends.sqlite.schema import scope_token
    from memory.backends.sqlite.search import as_blob, index_rows
    from memory.embeddings import model_name_of
    from memory.retrieval import identifiers

    model = model_name_of(embeddings)
    scope = scope_token("facts", ns.tenant)
    now = written_at
    own = vector_pool is None
    texts = None if own else [_fact_text(tenant_index, i) for i in range(min(count, pool_size))]
    idents = None if own else [" ".join(sorted(identifiers(t))) for t in texts]
    for lo in range(0, count, batch):
        hi = min(count, lo + batch)
        if own:
            batch_texts = [_fact_text(tenant_index, i) for i in range(lo, hi)]
            batch_idents = [" ".join(sorted(identifiers(t))) for t in batch_texts]
            vectors = np.asarray(embeddings.embed_documents(batch_texts), dtype=np.float32)
        else:
            batch_texts = [texts[i % len(texts)] for i in range(lo, hi)]
            batch_idents = [idents[i % len(idents)] for i in range(lo, hi)]
            vectors = vector_pool[np.arange(lo, hi) % len(vector_pool)]
        with writer.write() as conn:
            next_id = writer.next_id("facts")
            rows, fts = [], []
            for offset, (text, ident, vector) in enumerate(zip(batch_texts, batch_idents, vectors, strict=True)):
                fact = Fact(fact_id=f"fact-{tenant_index:02d}-{lo + offset:06d}", domain=domain, text=text,
                            confidence=0.8, source_runs=["a", "b", "c"], created_at=now, updated_at=now,
                            embedding_model=model)
                rows.append((next_id + offset, ns.tenant, fact.fact_id, domain, now.timestamp(), model, as_blob(vector),
                             fact.model_dump_json()))
                fts.append((next_id + offset, scope, text, ident))
            conn.executemany("INSERT INTO facts (id, tenant, fact_id, domain, updated_at, model, vector, record) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            index_rows(conn, "facts", fts)


def add_procedures(memory, ns: Namespace, task_type: str) -> None:
    """One validated, proven procedure for the task type and a few others, as a real tenant has."""
    steps = ["List the sections once", "Assess every playbook clause type against its section",
             "Search for clause types whose heading did not match", "Record one finding per clause type"]
    for number, (ttype, status) in enumerate([(task_type, ProcedureStatus.VALIDATED), (task_type, ProcedureStatus.PENDING),
                                              ("nda_review", ProcedureStatus.VALIDATED), ("lease_review", ProcedureStatus.PENDING)]):
        proc = memory.procedures.propose(ns, Procedure(procedure_id=f"bench-proc-{number}", task_type=ttype,
                                                       title=f"Review a {ttype.replace('_', ' ')} ({number})",
                                                       steps=steps, source_runs=["a"]))
        if status is ProcedureStatus.VALIDATED:
            memory.procedures.set_status(ns, proc.procedure_id, status, by="bench")
            for run in range(5):
                memory.procedures.record_application(ns, proc.procedure_id, success=run != 2, run_id=f"r{run}")


class FillState:
    """`fill.json` in the data folder: how many rows of each kind are already stored."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "fill.json"
        self.data = json.loads(self.path.read_text()) if self.path.exists() else {}

    def save(self) -> None:
        self.path.write_text(json.dumps(self.data, indent=2))
