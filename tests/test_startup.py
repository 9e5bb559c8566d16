"""Start-up loads only what a command uses: the CLI, `--help`, and a review up to its first model call.

Each check starts a fresh interpreter (an import already made by another test would hide a
regression) and reads `sys.modules`; timings are benchmarks' business (`contract-review bench
bootstrap`), not tests'.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from tests.conftest import SAMPLES

# Needed by no command at import time; each costs from a tenth of a second to over a second.
HEAVY_FOR_ANY_COMMAND = {
    "langgraph", "langchain_core", "langsmith", "numpy", "pypdf", "wordllama", "bm25s", "scipy",
    "presidio_analyzer", "spacy", "matplotlib", "boto3", "botocore", "langchain_aws", "chromadb",
    "langchain_ollama", "pydantic_settings", "yaml", "graphs", "tools",
}
# A review reaches its first model call without these: PII scrubbing is on the write path, BM25
# serves the first contract search, plots and cloud SDKs are for benchmarks and their extras.
NOT_BEFORE_FIRST_MODEL_CALL = {
    "presidio_analyzer", "spacy", "bm25s", "scipy", "matplotlib", "boto3", "botocore", "langchain_aws",
    "chromadb", "langchain_ollama",
}


def _run(code: str) -> tuple[set[str], str]:
    """The top-level packages loaded after running `code` in a fresh interpreter, and its stderr."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted({m.partition('.')[0] for m in sys.modules})))"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return set(json.loads(proc.stdout.strip().splitlines()[-1])), proc.stderr


def _loaded_after(code: str) -> set[str]:
    return _run(code)[0]


def test_importing_the_cli_loads_no_heavy_package():
    assert not _loaded_after("import cli.main") & HEAVY_FOR_ANY_COMMAND


def test_help_loads_no_heavy_package():
    code = "from cli.main import main\nassert main(['--help']) == 0\nassert main(['memory', '--help']) == 0"
    assert not _loaded_after(code) & HEAVY_FOR_ANY_COMMAND


def test_review_reaches_its_first_model_call_without_scrubber_bm25_plots_or_cloud_sdks(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "bench.cold", repr(time.time()), str(tmp_path / "home"), str(SAMPLES / "northwind_msa_01.txt")],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    loaded = set(json.loads(proc.stdout.strip().splitlines()[-1])["loaded"])
    assert {"langgraph", "wordllama"} <= loaded  # the probe did reach the model with memory on
    assert not loaded & NOT_BEFORE_FIRST_MODEL_CALL
    # memory is searched by where the detectors place each clause type in this contract (issue 31:
    # by what the run derives, not by its text), so their patterns are compiled by the first call
    assert json.loads(proc.stdout.strip().splitlines()[-1])["detectors_compiled"] > 0


def test_a_review_without_memory_never_loads_the_pii_scrubber_and_logs_nothing(tmp_path):
    code = (
        "from cli.main import main\n"
        f"assert main(['-q', 'review', {str(SAMPLES / 'northwind_msa_01.txt')!r}, '--no-memory', '--format', 'json',"
        f" '--home', {str(tmp_path)!r}, '--out', {str(tmp_path / 'r.json')!r}]) == 0"
    )
    loaded, stderr = _run(code)
    assert {"langgraph", "bm25s"} <= loaded and not loaded & {"presidio_analyzer", "spacy", "boto3", "chromadb"}
    # bm25s, imported at the first search, sets its logger to DEBUG: the CLI's handler still drops it
    assert stderr == ""
