"""Compare approximate nearest-neighbour libraries on this machine, on the memory's own vectors.

    python scripts/ann_candidates.py --size 100000 [--size 1000000] [--queries 300]

The vectors are WordLlama embeddings (the offline default, 256 dims) of the bootstrap benchmark's
generated episodes (`bench.memory_data`), the queries the benchmark's own query forms. For each
library that is installed it prints build time, query latency p50/p95 (one query at a time, as a
bootstrap asks), recall@10 against exact search, index size on disk, time to open the saved index
(the cold start) and whether it removes single vectors. Candidates missing from the environment
are reported as not installed. The libraries are not all dependencies of the project: install
them in a scratch venv to compare (`pip install usearch hnswlib faiss-cpu sqlite-vec
pysqlite3-binary`). Figures go into docs/BENCHMARKS.md ("Choosing the vector index").
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

K = 10


def corpus(size: int, n_queries: int) -> tuple[np.ndarray, np.ndarray]:
    from bench.bootstrap import QUERY_FORMS
    from bench.memory_data import episode_spec
    from memory.embeddings import load_embeddings

    embeddings = load_embeddings("wordllama")
    vectors = np.empty((size, 256), dtype=np.float32)
    step = 20_000
    for lo in range(0, size, step):
        hi = min(size, lo + step)
        texts = []
        for i in range(lo, hi):
            spec = episode_spec(i, 0)
            texts.append("\n".join([spec.summary(), *spec.findings]))
        vectors[lo:hi] = np.asarray(embeddings.embed_documents(texts), dtype=np.float32)
    rng = random.Random(7)
    texts = []
    for n in range(n_queries):
        spec = episode_spec(rng.randrange(size), 0)
        texts.append(QUERY_FORMS[n % len(QUERY_FORMS)].format(kind=spec.kind, party=spec.party, ref=spec.ref))
    queries = np.asarray(embeddings.embed_documents(texts), dtype=np.float32)
    return vectors, queries


def exact(vectors: np.ndarray, queries: np.ndarray) -> np.ndarray:
    out = np.empty((len(queries), K), dtype=np.int64)
    for i, q in enumerate(queries):
        scores = np.einsum("ij,j->i", vectors, q)
        top = np.argpartition(-scores, K)[:K]
        out[i] = top[np.argsort(-scores[top])]
    return out


def timed_queries(search: Callable[[np.ndarray], np.ndarray], queries: np.ndarray, truth: np.ndarray) -> dict:
    for q in queries[:20]:
        search(q)  # warm caches
    times, hits = [], 0
    for q, expected in zip(queries, truth, strict=True):
        start = time.perf_counter()
        found = search(q)
        times.append((time.perf_counter() - start) * 1000)
        hits += len(set(np.asarray(found[:K]).tolist()) & set(expected.tolist()))
    times.sort()
    return {"p50_ms": round(times[len(times) // 2], 3), "p95_ms": round(times[int(len(times) * 0.95)], 3),
            "recall_at_10": round(hits / (K * len(queries)), 4)}


def size_of(path: Path) -> float:
    files = [path] if path.is_file() else list(path.rglob("*"))
    return round(sum(p.stat().st_size for p in files if p.is_file()) / 2**20, 1)


def numpy_scan(vectors, queries, truth, folder):
    path = folder / "vectors.npy"
    np.save(path, vectors)
    start = time.perf_counter()
    loaded = np.load(path, mmap_mode="r")
    loaded = np.ascontiguousarray(loaded)
    opened = time.perf_counter() - start

    def search(q):
        scores = np.einsum("ij,j->i", loaded, q)
        top = np.argpartition(-scores, K)[:K]
        return top[np.argsort(-scores[top])]

    return {"build_s": 0.0, "open_s": round(opened, 3), "disk_mb": size_of(path), "removes": "yes (mask)",
            **timed_queries(search, queries, truth)}


def usearch_hnsw(vectors, queries, truth, folder, dtype="f32"):
    from usearch.index import Index

    index = Index(ndim=vectors.shape[1], metric="cos", dtype=dtype, connectivity=16, expansion_add=128,
                  expansion_search=64)
    start = time.perf_counter()
    index.add(np.arange(len(vectors), dtype=np.uint64), vectors, threads=2)
    built = time.perf_counter() - start
    path = folder / f"index-{dtype}.usearch"
    index.save(str(path))
    del index
    start = time.perf_counter()
    loaded = Index.restore(str(path), view=True)
    opened = time.perf_counter() - start

    def search(q):
        return loaded.search(q, K, threads=1).keys

    result = timed_queries(search, queries, truth)
    return {"build_s": round(built, 1), "open_s": round(opened, 3), "disk_mb": size_of(path),
            "removes": "yes (remove(key))", **result}


def usearch_i8(vectors, queries, truth, folder):
    return usearch_hnsw(vectors, queries, truth, folder, dtype="i8")


def hnswlib_hnsw(vectors, queries, truth, folder):
    import hnswlib

    index = hnswlib.Index(space="ip", dim=vectors.shape[1])
    index.init_index(max_elements=len(vectors), ef_construction=128, M=16, allow_replace_deleted=True)
    index.set_num_threads(2)
    start = time.perf_counter()
    index.add_items(vectors, np.arange(len(vectors)))
    built = time.perf_counter() - start
    path = folder / "index.hnswlib"
    index.save_index(str(path))
    del index
    start = time.perf_counter()
    loaded = hnswlib.Index(space="ip", dim=vectors.shape[1])
    loaded.load_index(str(path), allow_replace_deleted=True)
    loaded.set_ef(64)
    loaded.set_num_threads(1)
    opened = time.perf_counter() - start

    def search(q):
        return loaded.knn_query(q, k=K)[0][0]

    return {"build_s": round(built, 1), "open_s": round(opened, 3), "disk_mb": size_of(path),
            "removes": "mark_deleted (slot reused)", **timed_queries(search, queries, truth)}


def faiss_hnsw(vectors, queries, truth, folder):
    import faiss

    faiss.omp_set_num_threads(2)
    index = faiss.IndexIDMap2(faiss.IndexHNSWFlat(vectors.shape[1], 16, faiss.METRIC_INNER_PRODUCT))
    faiss.downcast_index(index.index).hnsw.efConstruction = 128
    start = time.perf_counter()
    index.add_with_ids(vectors, np.arange(len(vectors), dtype=np.int64))
    built = time.perf_counter() - start
    path = folder / "index.faiss"
    faiss.write_index(index, str(path))
    del index
    start = time.perf_counter()
    loaded = faiss.read_index(str(path), faiss.IO_FLAG_MMAP)
    opened = time.perf_counter() - start
    faiss.omp_set_num_threads(1)
    faiss.downcast_index(loaded.index).hnsw.efSearch = 64

    def search(q):
        return loaded.search(q.reshape(1, -1), K)[1][0]

    return {"build_s": round(built, 1), "open_s": round(opened, 3), "disk_mb": size_of(path),
            "removes": "no (HNSW remove_ids unsupported)", **timed_queries(search, queries, truth)}


def faiss_flat(vectors, queries, truth, folder):
    import faiss

    faiss.omp_set_num_threads(1)
    index = faiss.IndexFlatIP(vectors.shape[1])
    start = time.perf_counter()
    index.add(vectors)
    built = time.perf_counter() - start
    path = folder / "flat.faiss"
    faiss.write_index(index, str(path))

    def search(q):
        return index.search(q.reshape(1, -1), K)[1][0]

    return {"build_s": round(built, 1), "open_s": None, "disk_mb": size_of(path), "removes": "yes (exact)",
            **timed_queries(search, queries, truth)}


def sqlite_vec(vectors, queries, truth, folder):
    import sqlite_vec as vec
    from pysqlite3 import dbapi2 as sqlite3

    path = folder / "vec.sqlite"
    conn = sqlite3.connect(str(path))
    conn.enable_load_extension(True)
    vec.load(conn)
    conn.execute(f"CREATE VIRTUAL TABLE v USING vec0(embedding float[{vectors.shape[1]}] distance_metric=cosine)")
    start = time.perf_counter()
    with conn:
        conn.executemany("INSERT INTO v (rowid, embedding) VALUES (?, ?)",
                         ((i, v.tobytes()) for i, v in enumerate(vectors)))
    built = time.perf_counter() - start

    def search(q):
        rows = conn.execute("SELECT rowid FROM v WHERE embedding MATCH ? AND k = ? ORDER BY distance",
                            (q.tobytes(), K)).fetchall()
        return np.asarray([r[0] for r in rows])

    return {"build_s": round(built, 1), "open_s": None, "disk_mb": size_of(path), "removes": "yes (exact)",
            **timed_queries(search, queries, truth)}


CANDIDATES = {
    "numpy exact scan": (None, numpy_scan),
    "usearch HNSW f32": ("usearch", usearch_hnsw),
    "usearch HNSW i8": ("usearch", usearch_i8),
    "hnswlib HNSW": ("hnswlib", hnswlib_hnsw),
    "faiss HNSW flat": ("faiss", faiss_hnsw),
    "faiss exact (IndexFlatIP)": ("faiss", faiss_flat),
    "sqlite-vec vec0 (exact)": ("sqlite_vec", sqlite_vec),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, action="append", help="vectors (repeatable); default 100000")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--only", action="append", help="run only these candidates (name substring)")
    args = parser.parse_args()
    report = {"load_average_1_5_15": [round(x, 2) for x in os.getloadavg()], "sizes": {}}
    for size in args.size or [100_000]:
        vectors, queries = corpus(size, args.queries)
        truth = exact(vectors, queries)
        rows = {}
        for name, (module, run) in CANDIDATES.items():
            if args.only and not any(part in name for part in args.only):
                continue
            if module and importlib.util.find_spec(module) is None:
                rows[name] = "not installed"
                continue
            if name.startswith("sqlite-vec") and importlib.util.find_spec("pysqlite3") is None:
                rows[name] = "needs pysqlite3 (this Python's sqlite3 cannot load extensions)"
                continue
            with tempfile.TemporaryDirectory(prefix="ann-") as folder:
                rows[name] = run(vectors, queries, truth, Path(folder))
            print(size, name, rows[name], flush=True)
        report["sizes"][str(size)] = rows
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
