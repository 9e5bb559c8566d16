"""Which rows of a namespace hold a word: counted by FTS5 once, remembered while it stays true.

Every hybrid search asks, for up to eight query words, "do few rows of this namespace hold it,
and which?" (`search.HybridIndex._distinctive_rows`), and for sentence-initial names "does this
name identify something here?" (`_rare_names`). Each answer is an FTS5 lookup that intersects
the namespace's scope token with the word's postings in a table shared by every tenant: about
0.2 ms whatever the answer, 2 ms of a search at 100k episodes, and nearly always the same
answer, since most query words ("contract", "review", a kind of agreement) are common.

So answers are kept per namespace, with what makes each stay true:
* "common" (held by more than `limit` rows) stays true while the namespace only grows: rows
  added cannot make a word rarer. It is dropped when rows of the namespace are removed or
  replaced (`Database.bump_generation`, which every delete path bumps for the vector caches too).
* "rare" (its holders, at most `limit`) stays true only while no row was added anywhere
  (`sqlite_sequence` of the vector journal, which a trigger writes for every new row): a new row
  may hold the word.
The markers are read in the search's own read transaction, so a cached answer is never older
than the state the rest of the search sees.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

MAX_WORDS = 20_000  # remembered words per namespace and table before starting over

# lookup(key, limit) -> up to `limit` + 1 row ids holding the word or name `key` names
Lookup = Callable[[tuple[str, str], int], list[int]]


@dataclass
class _Scope:
    generation: int
    added: int
    common: dict[tuple[str, str], int] = field(default_factory=dict)  # word -> a limit it was held above
    rare: dict[tuple[str, str], tuple[int, list[int]]] = field(default_factory=dict)  # word -> (limit, its holders)


class HolderCache:
    """Remembered answers of one FTS table (one per `HybridIndex`), per namespace scope."""

    def __init__(self) -> None:
        self._scopes: dict[str, _Scope] = {}
        self._lock = threading.Lock()

    def view(self, conn: sqlite3.Connection, scope: str) -> ScopeView:
        """The answers for `scope` still true in `conn`'s read transaction."""
        generation, added = conn.execute(
            "SELECT (SELECT value FROM generations WHERE scope = ?), "
            "(SELECT seq FROM sqlite_sequence WHERE name = 'vector_log')", (scope,)).fetchone()
        generation, added = generation or 0, added or 0
        with self._lock:
            state = self._scopes.get(scope)
            if state is None or state.generation != generation or len(state.common) + len(state.rare) > MAX_WORDS:
                state = self._scopes[scope] = _Scope(generation, added)
            elif state.added != added:  # rows were added somewhere: a rare word may have new holders
                state.rare = {}
                state.added = added
        return ScopeView(state, generation, added)


@dataclass
class ScopeView:
    state: _Scope
    generation: int
    added: int

    def holders(self, word: tuple[str, str], limit: int, lookup: Lookup) -> list[int] | None:
        """The rows holding `word` (a kind of lookup and the word, e.g. ("word", "reagents")) if
        at most `limit` do, else None (common)."""
        state = self.state
        above = state.common.get(word)
        if above is not None and above >= limit:
            return None
        known = state.rare.get(word)
        if known is not None and known[0] == limit:
            return known[1]
        found = lookup(word, limit)
        if state.generation == self.generation and state.added == self.added:  # else a newer view replaced it
            if len(found) > limit:
                state.common[word] = limit
            else:
                state.rare[word] = (limit, found)
        return None if len(found) > limit else found
