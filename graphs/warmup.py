"""A review's slow first reads, started beside the imports of the graph's libraries.

Before `contract-review review` can make its first model call it imports LangGraph, LangChain
and the graph (more than a second on a 2-core machine), reads the contract (pypdf), loads the
embedding model and opens the memory file, whose first search maps its vector index from disk.
The command line knows the file and the memory URL before it imports the graph, so a background
thread does the second group while the main thread imports: much of that work waits on the disk
or runs in native code (pypdf's zlib, numpy, SQLite, usearch), which the imports do not hold up.

Nothing here decides anything. The thread only fills the caches the graph reads from: the
contract the command reviews (read once, as `load_contract` reads it), and the embeddings and
memory backend `graphs.context.resources` would build for the same specs. The bootstrap node
still makes every memory read itself. A warm-up that fails changes nothing but time: the graph
builds what is missing and reports its own errors. Only what is offline and local is warmed
(the data folder's memory file when it exists, wordllama or hash embeddings): a cloud client is built
on the graph's path as before.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.settings import Settings

log = logging.getLogger(__name__)

OFFLINE_EMBEDDINGS = ("wordllama", "hash")
WARM_QUERY_CHARS = 900  # of the contract's text: what the first searches are made with


class Warmup:
    """Reads one contract and warms the memory it will be reviewed against, in a thread."""

    def __init__(self, settings: Settings, path: Path, *, use_memory: bool) -> None:
        self.settings = settings
        self.path = path
        self.use_memory = use_memory
        self.contract: Any = None  # a tools.contract.Contract
        self.contract_error: BaseException | None = None
        self.embeddings: Any = None
        self.memory: Any = None
        self.memory_url = settings.resolved_memory_url()
        self._thread = threading.Thread(target=self._run, name="review-warmup", daemon=True)

    @classmethod
    def start(cls, settings: Settings, path: Path, *, use_memory: bool) -> Warmup:
        warmup = cls(settings, path, use_memory=use_memory)
        warmup._thread.start()
        return warmup

    @classmethod
    def inline(cls, settings: Settings, path: Path, *, use_memory: bool) -> Warmup:
        """The same work in the calling thread (what a benchmark times phase by phase)."""
        warmup = cls(settings, path, use_memory=use_memory)
        warmup._run()
        return warmup

    def join(self) -> Warmup:
        if self._thread.ident is not None:  # started (`inline` ran it in the caller's thread)
            self._thread.join()
        return self

    def _run(self) -> None:
        from tools.contract import load_contract

        try:
            self.contract = load_contract(self.path, max_bytes=self.settings.max_input_bytes)
        except BaseException as exc:  # reported by the command, as if it had read the file itself
            self.contract_error = exc
            return
        if not self.use_memory or not self._local_memory_file():
            return
        try:
            self._warm_memory(self.contract.text[:WARM_QUERY_CHARS])
        except Exception as exc:  # the graph opens what it needs and reports what fails
            log.debug("memory warm-up skipped: %s", exc)
            self.close()

    def _local_memory_file(self) -> bool:
        """The data folder's own memory file, when it exists (a fresh data folder has nothing to
        warm, and the graph, not a warm-up, creates a memory file), with offline embeddings."""
        spec = str(self.settings.embeddings).strip()
        if spec.partition(":")[0] not in OFFLINE_EMBEDDINGS:
            return False
        return not self.settings.memory_url and self.settings.sqlite_path.is_file()

    def _warm_memory(self, text: str) -> None:
        from memory.backends import open_memory
        from memory.embeddings import load_embeddings, model_name_of
        from memory.records import Namespace
        from memory.stores import VectorQuery

        ns = Namespace(tenant=self.settings.tenant, agent=self.settings.agent)  # a crafted id stops here
        self.embeddings = load_embeddings(self.settings.embeddings)
        self.memory = open_memory(self.memory_url)
        query = VectorQuery(text=text, vector=self.embeddings.embed_query(text),
                            embedding_model=model_name_of(self.embeddings), k=3, min_score=1.0,
                            now=datetime.now(UTC))
        # First searches map each tier's vector index and read its pages; what they find is dropped.
        self.memory.episodes.search(ns, query)
        self.memory.facts.search(ns, query.model_copy(update={"domain": self.settings.domain}))

    def hand_over(self) -> None:
        """Give the graph's resource cache what was warmed (call after `join`, once the caller has
        imported the graph: graphs.context holds LangChain)."""
        from graphs.context import prime_cached

        if self.embeddings is not None and prime_cached("embeddings", self.settings.embeddings, self.embeddings):
            self.embeddings = None
        if self.memory is not None and prime_cached("memory", self.memory_url, self.memory):
            self.memory = None

    def contract_for(self, path: Path) -> Any:
        """The contract read for `path` (raising what reading it raised); None for another path."""
        if Path(path) != self.path:
            return None
        self.join()
        if self.contract_error is not None:
            raise self.contract_error
        return self.contract

    def close(self) -> None:
        """Close what was not handed over (after the thread ends: it may be opening it)."""
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join()
        memory, self.memory = self.memory, None
        if memory is not None:
            memory.close()
