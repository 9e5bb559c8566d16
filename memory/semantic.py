"""The semantic tier: the confirmation gate that promotes domain facts, and fact recall.

A run proposes fact candidates; a candidate counts only from a COMPLETED run with confidence
>= `min_confidence`. A fact is what it claims (`memory.claims`): its key is the normalised
claims (subject, relation, value), never the words around them, and a candidate that names a
party, a person or a company, or makes no claim the grammar can read, is refused. The
confirmation log counts, per key, the distinct sources (contracts: one contract reviewed three
times is one source), the distinct counterparties and the distinct templates that observed it;
a fact is promoted once `confirmations` contracts from at least `min_counterparties`
counterparties and `min_templates` templates observed it. An observation is recorded only once
its run's episode is stored: the episode is the run's commit marker.

A fact that passes the gate but contradicts the playbook's standard position (a value the
position would not call standard) is stored as QUEUED: never served, waiting in the review
queue (`memory.fact_review`) for a person to approve or reject it. Callers scrub PII and screen
instructions first.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from langchain_core.embeddings import Embeddings

from memory.claims import (
    NO_VOCABULARY,
    Claim,
    ContradictionCheck,
    Vocabulary,
    claims_key,
    claims_text,
    contradiction,
    party_token,
    read_claims,
    refusal,
    template_token,
)
from memory.embeddings import model_name_of
from memory.errors import MemoryConfigError, MemoryRequestError
from memory.records import Fact, FactCandidate, FactStatus, Namespace, Outcome, Scored
from memory.stores import ConfirmationLog, EpisodeStore, FactStore, VectorQuery

__all__ = ["observe", "recall", "fact_key", "normalise_fact", "observation_keys", "party_token", "template_token",
           "Vocabulary"]

_log = logging.getLogger(__name__)
UNKNOWN = "unknown"  # a run that does not say its counterparty or template: all such runs count as one
_COUNTERPARTIES = "-cp"  # the log keys beside a fact's own, counting its counterparties and templates
_TEMPLATES = "-tpl"


def normalise_fact(text: str, vocabulary: Vocabulary = NO_VOCABULARY) -> str:
    """The canonical wording of what a fact claims ("" when it claims nothing readable)."""
    return claims_text(read_claims(text, vocabulary))


def fact_key(text: str, vocabulary: Vocabulary = NO_VOCABULARY) -> str:
    """A stable id for what a fact claims (what the confirmation log counts)."""
    claims = read_claims(text, vocabulary)
    if not claims:
        raise MemoryConfigError(f"fact {text!r} makes no claim memory can read (subject, relation, value)")
    return claims_key(claims)


def observation_keys(fact_id: str) -> list[str]:
    """Every key of the confirmation log that holds observations of a fact (its own, and those that
    count its counterparties and templates): forgetting a fact discards them all."""
    return [fact_id, fact_id + _COUNTERPARTIES, fact_id + _TEMPLATES]


_FINDING_SECTION = re.compile(r"\bin section ([\w.]+)(?: \"([^\"]*)\")?")


def _findings_template(findings: Sequence[str]) -> str | None:
    """A template token from the sections the run's key findings name (number and heading as
    the sectioner read them): copies of one template name the same ones. None with fewer than two."""
    sections = sorted({f"{m.group(1)} {m.group(2) or ''}" for f in findings if (m := _FINDING_SECTION.search(f))})
    return template_token(sections) if len(sections) >= 2 else None


def _contradicts(claims: Sequence[Claim], vocabulary: Vocabulary, check: ContradictionCheck | None) -> str:
    for claim in claims:
        reason = (check(claim) if check is not None else None) or contradiction(claim, vocabulary)
        if reason:
            return f"{claim.subject.replace('_', ' ')}: {reason}"
    return ""


def observe(
    store: FactStore,
    log: ConfirmationLog,
    embeddings: Embeddings,
    ns: Namespace,
    run_id: str,
    outcome: Outcome,
    candidates: Sequence[FactCandidate],
    *,
    default_domain: str | None = None,
    min_confidence: float = 0.7,
    confirmations_needed: int = 3,
    now: datetime,
    episodes: EpisodeStore | None = None,
    source: str | None = None,
    counterparty: str | None = None,
    template: str | None = None,
    parties: Iterable[str] = (),
    vocabulary: Vocabulary = NO_VOCABULARY,
    contradicts: ContradictionCheck | None = None,
    min_counterparties: int = 2,
    min_templates: int = 2,
) -> list[Fact]:
    """Run the confirmation gate on one run's fact candidates; returns the facts confirmed now
    (stored by this call for the first time and served). A candidate left in the catch-all
    "general" domain takes `default_domain` when one is given.

    `source` names what the run worked on (a content hash of its contract), `counterparty` the
    other side (`party_token(name)`: no name is kept) and `template` the contract's template
    (`template_token(headings)`). When they are not given and `episodes` is, they are read from
    the run's stored episode (its counterparty; the sections its key findings name); a run that
    still has none counts with every other such run as one: they never confirm a fact alone. `parties` are the names of
    the run's parties: a candidate naming one is refused. `vocabulary` gives the subjects the
    caller knows and their standard positions; `contradicts(claim)` may add the caller's own
    check. With `episodes`, the run's episode must already be stored in `ns`
    (MemoryRequestError otherwise): no observation, hence no fact, ever stands on a run that did
    not commit."""
    if confirmations_needed < 1 or min_counterparties < 1 or min_templates < 1:
        raise MemoryConfigError(f"fact confirmations must be at least 1, got {confirmations_needed} contracts, "
                                f"{min_counterparties} counterparties, {min_templates} templates")
    if outcome != Outcome.COMPLETED:
        return []
    parties = [p for p in parties if p and p.strip()]
    readable: list[tuple[FactCandidate, tuple[Claim, ...]]] = []
    for candidate in candidates:
        if candidate.confidence < min_confidence:
            continue
        why = refusal(candidate.text, parties)
        claims = () if why else read_claims(candidate.text, vocabulary)
        if why or not claims:
            _log.info("run %s: fact not learned (%s)", run_id, why or "no readable claim")
            continue
        readable.append((candidate, claims))
    episode = episodes.get(ns, run_id) if readable and episodes is not None else None
    if readable and episodes is not None and episode is None:
        raise MemoryRequestError(
            f"run {run_id!r} has no episode yet: write the episode (the run's commit marker) before its facts"
        )
    if episode is not None:  # what the run committed says what the caller did not
        counterparty = counterparty or (party_token(episode.counterparty) if episode.counterparty else None)
        template = template or _findings_template(episode.key_findings)
        if episode.counterparty and refusal(" ".join(c.text for c, _ in readable), [episode.counterparty]):
            readable = [(c, claims) for c, claims in readable if not refusal(c.text, [episode.counterparty])]
    confirmed: list[Fact] = []
    for candidate, claims in readable:
        key = claims_key(claims)
        contracts = log.observe(ns, key, run_id, source)
        counterparties = log.observe(ns, key + _COUNTERPARTIES, run_id, counterparty or UNKNOWN)
        templates = log.observe(ns, key + _TEMPLATES, run_id, template or UNKNOWN)
        if contracts < confirmations_needed or counterparties < min_counterparties or templates < min_templates:
            continue
        reason = _contradicts(claims, vocabulary, contradicts)
        runs = log.runs(ns, key)
        existing = store.get(ns, key)
        text = claims_text(claims)
        if existing is None:
            domain = default_domain if default_domain and candidate.domain in ("", "general") else candidate.domain
            fact = Fact(
                fact_id=key, domain=domain, text=text, confidence=candidate.confidence, source_runs=runs,
                created_at=now, updated_at=now, embedding_model=model_name_of(embeddings),
                status=FactStatus.QUEUED if reason else FactStatus.CONFIRMED, review_reason=reason,
            )
            if fact.served:
                confirmed.append(fact)
            else:
                _log.warning("run %s: fact %s contradicts the playbook (%s): queued for review", run_id, key, reason)
        elif run_id not in existing.source_runs:
            update: dict = {"source_runs": runs, "confidence": max(existing.confidence, candidate.confidence),
                            "updated_at": now, "embedding_model": model_name_of(embeddings)}
            if reason and existing.status == FactStatus.CONFIRMED and existing.decided_by is None:
                update.update(status=FactStatus.QUEUED, review_reason=reason)  # the playbook changed since
            fact = existing.model_copy(update=update)
        else:
            continue
        store.put(ns, fact, embeddings.embed_documents([fact.text])[0])
    return confirmed


def recall(
    store: FactStore,
    embeddings: Embeddings,
    ns: Namespace,
    query_text: str,
    *,
    domain: str | None = None,
    k: int,
    min_score: float,
    now: datetime,
) -> list[Scored[Fact]]:
    """Up to `k` served facts relevant to `query_text`, optionally of one domain only: a fact queued
    for review or rejected is never served (the search asks for more to make up for them)."""
    if k <= 0 or not query_text.strip():
        return []
    query = VectorQuery(
        text=query_text, vector=embeddings.embed_query(query_text), embedding_model=model_name_of(embeddings),
        k=4 * k, min_score=min_score, now=now, domain=domain,
    )
    return [hit for hit in store.search(ns, query) if hit.item.served][:k]
