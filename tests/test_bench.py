"""Every benchmark runs end to end at a tiny size and writes the JSON the README table is built
from; the pieces that decide a figure (recall, percentiles, the reference method, the long-run
plan, the variant labels) are checked on their own."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from bench import bootstrap, compression, improvement, suite, variants
from bench.common import percentiles
from cli.main import main
from tools.playbook import load_playbook


def _json(out, name):
    document = json.loads((out / f"{name}.json").read_text())
    assert document["benchmark"] == name and document["size"] == "tiny"
    assert document["machine"]["cores"] >= 1 and document["seconds"] > 0
    return document


def test_improvement_writes_runs_recall_and_the_png(tmp_path):
    out = tmp_path / "results"
    suite.run_benchmark("improvement", out=out, data=tmp_path / "data", size="tiny")
    doc = _json(out, "improvement")
    assert [s["sequence"] for s in doc["sequences"]] == ["northwind_msa", "kestrel_supply", "skyline_variant"]
    assert [len(s["runs"]) for s in doc["sequences"]] == [2, 2, 2]
    for seq in doc["sequences"]:
        first, second = seq["runs"]
        assert first["on"]["episodes_used"] == 0  # a fresh data folder: nothing to recall yet
        assert second["on"]["episodes_used"] >= 1  # the first run of the sequence is remembered
        assert second["off"]["episodes_used"] == 0
        for run in seq["runs"]:
            assert run["off"]["recall"] == 1.0 and run["on"]["recall"] == 1.0
            assert run["on"]["deviations_planted"] >= 3
            assert run["token_ratio"] == pytest.approx(run["on"]["tokens"] / run["off"]["tokens"], abs=1e-3)
            assert run["on"]["section_accuracy"] >= run["off"]["section_accuracy"]
        assert second["on"]["tool_calls"] < second["off"]["tool_calls"]  # memory already pays on run 2
        assert seq["no_contract_worse"] and [f["contract"] for f in seq["first_runs"]] == [first["contract"]]
    assert doc["no_contract_worse"] is True
    assert (out / "improvement.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bootstrap_writes_latency_per_size_and_reference(tmp_path):
    out = tmp_path / "results"
    suite.run_benchmark("bootstrap", out=out, data=tmp_path / "data", size="tiny")
    doc = _json(out, "bootstrap")
    assert [s["own_episodes"] for s in doc["sizes"]] == [40, 120]
    for size in doc["sizes"]:
        for key in ("bootstrap", "episodic", "semantic", "procedural", "block", "reference"):
            assert size["latency_ms"][key]["n"] == 5 and size["latency_ms"][key]["p95"] > 0
        assert 0 <= size["target_found_at_3"]["reference"] <= 1
        # the exact scan ran beside the index on the same file and queries
        assert size["exact_scan"]["latency_ms"]["bootstrap"]["n"] == 5
        assert 0.9 <= size["ann_recall_at_10"] <= 1  # tiny namespaces are searched exactly (the delta)
    assert doc["sizes"][-1]["target_found_at_3"]["full"] >= 0.8  # the query names its episode
    assert set(doc["targets"]) >= {"p95_ms", "ann_recall_met", "growth_met", "growth"}
    assert all("cold_start" not in size for size in doc["sizes"])  # make bench: the startup benchmark's
    # one memory file per size, kept in the data folder for the next run
    state = json.loads((tmp_path / "data" / "bootstrap" / "episodes-120" / "fill.json").read_text())
    assert state["own"] == 120 and state["facts"] == 30


def test_reference_method_only_sees_the_hundred_newest(tmp_path):
    from memory.backends.sqlite import SqliteMemory
    from memory.embeddings import load_embeddings, model_name_of
    from memory.records import Namespace

    home = tmp_path / "home"
    bootstrap.grow(home, 150, 0, capacity=150, log=lambda _: None)
    embeddings = load_embeddings("wordllama")
    ns = Namespace(tenant="default", agent="contract-reviewer")
    text, oldest = bootstrap.queries(150, 1)[0][0], "bench-00-0000000"
    spec_text = bootstrap.episode_spec(0, 0).summary()
    with SqliteMemory(home / "memory.sqlite") as memory:
        ids, window_full = bootstrap.reference_search(
            memory, ns, embeddings.embed_query(spec_text), model_name_of(embeddings), k=3, min_score=-1.0,
            now=datetime.now(UTC))
        assert window_full and len(ids) == 3 and oldest not in ids  # the oldest is outside the window
        newest, _ = bootstrap.reference_search(
            memory, ns, embeddings.embed_query(bootstrap.episode_spec(149, 0).summary()),
            model_name_of(embeddings), k=1, min_score=-1.0, now=datetime.now(UTC))
        assert newest == ["bench-00-0000149"]
    assert text


def test_retrieval_has_no_answer_queries_a_held_back_half_and_three_retrievers(tmp_path):
    from bench.retrieval_queries import absent_values_check, all_queries, split

    queries = all_queries()
    assert len(queries) >= 300 and {q.kind for q in queries} == {"party", "subject", "clause", "amount"}
    assert absent_values_check() == []  # no-answer values appear nowhere in what the benchmark stores
    tuning, held_back = split(queries)
    for half in (tuning, held_back):
        assert sum(not q.answerable for q in half) >= 0.25 * len(half)
    assert not {q.text for q in tuning} & {q.text for q in held_back}
    out = tmp_path / "results"
    assert main(["bench", "retrieval", "--size", "tiny", "--out", str(out), "--data", str(tmp_path / "d")]) == 0
    doc = _json(out, "retrieval")
    assert doc["queries"] == len(queries) and doc["no_answer_share"] >= 0.25
    for half in ("tuning", "held_back"):
        assert set(doc["halves"][half]) == {"vector", "lexical", "hybrid"}
        for mode in doc["halves"][half].values():
            assert 0 <= mode["mrr"] <= mode["recall_at_3"] <= 1 and 0 <= mode["irrelevant_served"] <= 1
    held = doc["halves"]["held_back"]
    assert held["hybrid"]["by_kind"]["clause"]["recall_at_3"] > held["vector"]["by_kind"]["clause"]["recall_at_3"]
    assert held["hybrid"]["irrelevant_served"] < held["vector"]["irrelevant_served"]


def test_compression_keeps_findings_and_tool_pairs_over_a_long_run(tmp_path):
    out = tmp_path / "results"
    suite.run_benchmark("compression", out=out, data=tmp_path / "data", size="tiny")
    doc = _json(out, "compression")
    on, off = doc["with_compression"], doc["without_compression"]
    assert on["tool_steps"] == off["tool_steps"] == doc["planned_tool_steps"] >= 40
    assert on["compressions"] >= 1 and off["compressions"] == 0
    assert on["peak_context_tokens"] < off["peak_context_tokens"]
    assert on["peak_context_messages"] <= 31 < off["peak_context_messages"]
    assert on["findings_in_report"] == off["findings_in_report"] == len(load_playbook().clause_types)
    assert on["histories_with_split_tool_pairs"] == 0 and doc["tool_pairs_intact"] is True


def test_long_run_plan_reaches_the_step_budget():
    types = [{"type": "liability_cap", "title": "Limitation of liability"}]
    calls = compression.plan_calls(["1", "2"], types, 200)
    assert len(calls) == 200 and calls[0][0] == "list_sections"
    assert [name for name, _ in calls[3:7]] == ["search_contract", "find_clauses", "assess_clause", "record_finding"]


def test_writepath_reports_rate_footprint_and_rss(tmp_path):
    out = tmp_path / "results"
    suite.run_benchmark("writepath", out=out, data=tmp_path / "data", size="tiny")
    doc = _json(out, "writepath")
    assert doc["consolidation"]["count"] == 2 and doc["consolidation"]["per_second"] > 0
    assert doc["consolidation"]["episodes_stored"] == 3  # warm-up + 2, each under its own run id
    assert doc["footprint"]["bytes_per_1000"] > doc["footprint"]["vector_bytes_per_1000"]  # vectors + rows + index
    assert doc["review_rss"]["peak_rss_mb"] >= doc["review_rss"]["after_imports_mb"] > 0


def test_variant_labels_follow_the_knobs(tmp_path):
    paths = variants.write_variants(tmp_path, 4)
    labels = json.loads((tmp_path / "expected.json").read_text())
    assert [p.stem for p in paths] == [v.name for v in variants.VARIANTS]
    text = paths[1].read_text()
    assert "Ashgrove Home Stores Ltd" in text and variants.BASE_CUSTOMER not in text
    assert "fifty per cent (50%) of the total Fees" in text  # variant 02 plants a low liability cap
    assert {"clause_type": "liability_cap", "verdict": "deviation"} in labels["skyline_variant_02"]


def test_a_review_is_scored_on_verdicts_and_on_where_its_quotes_sit():
    from bench.sequences import SAMPLES, score
    from tools.contract import load_contract

    path = SAMPLES / "kestrel_supply_04.txt"
    contract = load_contract(path, max_bytes=10**7)
    in_13_1 = contract.section("13.1")
    in_13_2 = contract.section("13.2")
    row = {"expected": [{"clause_type": "non_compete", "section": "13.2", "verdict": "deviation"},
                        {"clause_type": "audit_rights", "section": None, "verdict": "missing"},
                        {"clause_type": "sole_remedy", "section": "5.3", "verdict": "deviation"}],  # not a playbook type here
           "standard": [{"clause_type": "warranty", "section": "5"}]}
    findings = [{"clause_type": "non_compete", "verdict": "deviation", "start": in_13_1.start, "end": in_13_1.start + 20},
                {"clause_type": "audit_rights", "verdict": "missing", "start": -1, "end": -1},
                {"clause_type": "warranty", "verdict": "standard", "start": contract.section("5.2").start,
                 "end": contract.section("5.2").start + 30}]
    scored = score({"findings": findings}, row, path, ["non_compete", "audit_rights", "warranty"])
    assert (scored["recall"], scored["expected"], scored["deviations_planted"]) == (1.0, 2, 1)
    # the right verdict quoted from 13.1 is in the wrong place: the restraint is in 13.2
    assert scored["section_accuracy"] == round(2 / 3, 3) and scored["misplaced"] == ["non_compete"]
    findings[0].update(start=in_13_2.start + 5, end=in_13_2.start + 40, verdict="standard")
    scored = score({"findings": findings}, row, path, ["non_compete", "audit_rights", "warranty"])
    assert scored["recall"] == 0.5 and scored["missed"] == ["non_compete:deviation"]
    assert scored["section_accuracy"] == 1.0


def test_the_summary_names_every_contract_memory_made_worse_and_each_templates_first_run():
    def run(contract, supplier, on, off, ratio=1.0):
        return {"contract": contract, "supplier": supplier, "token_ratio": ratio, "tool_ratio": ratio,
                "on": {"recall": on[0], "section_accuracy": on[1], "episodes_used": 1},
                "off": {"recall": off[0], "section_accuracy": off[1], "episodes_used": 0}}

    runs = [run("a1", "A", (1, 1), (1, 1), 1.01), run("b1", "B", (1, 0.9), (1, 1), 1.3),
            run("a2", "A", (0.8, 1), (1, 1), 0.4), run("b2", "B", (1, 1), (0.5, 0.5), 0.35)]
    summary = improvement.summarise("mixed_templates", runs)
    assert summary["worse"] == ["b1", "a2"] and not summary["no_contract_worse"]
    assert [(f["contract"], f["target_met"]) for f in summary["first_runs"]] == [("a1", True), ("b1", False)]
    assert "third_run" not in summary  # the third-contract targets are for same-template sequences
    same = improvement.summarise("kestrel_supply", runs[:1] + runs[2:])
    assert same["third_run"]["contract"] == "b2" and same["third_run"]["tool_target_met"]


def test_percentiles_are_nearest_rank():
    stats = percentiles([float(x) for x in range(1, 101)])
    assert (stats["p50"], stats["p95"], stats["max"], stats["n"]) == (50.0, 95.0, 100.0, 100)


def test_unknown_benchmark_or_size_is_a_usage_error(tmp_path, capsys):
    assert main(["bench", "retrieval", "--size", "huge", "--out", str(tmp_path)]) == 3
    assert main(["bench", "retrieval", "--size", "1m", "--out", str(tmp_path)]) == 3  # 1m is bootstrap's only
    assert "unknown size" in capsys.readouterr().err


def test_bulk_loaded_identifiers_equal_what_index_text_writes():
    from bench.memory_data import Timeline, _episodes, episode_identifiers
    from memory.retrieval import identifiers

    for episode in _episodes(3, 0, 300, "m", Timeline(datetime.now(UTC), 300)):
        assert episode_identifiers(episode) == " ".join(sorted(identifiers(episode.embedding_text())))


def test_a_cached_memory_file_larger_than_asked_is_rebuilt(tmp_path):
    from memory.backends.sqlite import SqliteMemory
    from memory.records import Namespace

    home = tmp_path / "home"
    bootstrap.grow(home, 60, 0, capacity=60, log=lambda _: None)
    bootstrap.grow(home, 30, 0, capacity=60, log=lambda _: None)
    with SqliteMemory(home / "memory.sqlite") as memory:
        stored = memory.episodes.list(Namespace(tenant="default", agent="contract-reviewer"), limit=100)
    assert len(stored) == 30


def _cuad_folder(root, names):
    from bench.common import REPO

    (root / "contracts").mkdir(parents=True)
    rows = []
    for name in names:
        (root / "contracts" / name).write_text((REPO / "sample_contracts" / name).read_text())
        rows.append(json.dumps({"file": name, "labels": {"Governing Law": {"answer": "England", "spans": ["laws of England"]}}}))
    (root / "labels.jsonl").write_text("\n".join(rows) + "\n")
    return root


def test_cuad_benchmark_times_the_longest_contract_of_the_folder(tmp_path, monkeypatch):
    folder = _cuad_folder(tmp_path / "cuad", ["skyline_saas_subscription.txt", "tidewater_logistics_services.txt"])
    monkeypatch.setenv("CONTRACT_AGENT_CUAD_DIR", str(folder))
    out = tmp_path / "results"
    suite.run_benchmark("cuad", out=out, data=tmp_path / "data", size="tiny")
    doc = _json(out, "cuad")
    longest = max((folder / "contracts").iterdir(), key=lambda p: p.stat().st_size)
    assert doc["available"] and doc["longest"]["file"] == longest.name
    assert doc["longest"]["outcome"] == "COMPLETED" and doc["longest"]["findings"] > 0
    assert len(doc["longest"]["runs_s"]) == 1 and doc["longest"]["median_s"] == doc["longest"]["runs_s"][0]
    assert doc["longest"]["met"] == (doc["longest"]["median_s"] < 10) and "evaluation" not in doc  # tiny: no eval


def test_cuad_benchmark_scores_the_folder_and_says_when_there_is_none(tmp_path, capsys):
    from bench import cuad

    folder = _cuad_folder(tmp_path / "cuad", ["skyline_saas_subscription.txt"])
    result = cuad.run(folder=folder, runs=1)
    assert result["evaluation"]["contracts"] == 1 and 0 <= result["evaluation"]["macro_f1"] <= 1
    missing = cuad.run(folder=tmp_path / "nowhere")
    assert missing == {"available": False, "folder": str(tmp_path / "nowhere"), "reason": missing["reason"]}
    assert "CONTRACT_AGENT_CUAD_DIR" in missing["reason"]
    from rich.console import Console

    console = Console(width=200)
    for table in suite.render("cuad", missing):
        console.print(table)
    assert "not run" in capsys.readouterr().out


def test_startup_measures_python_help_and_the_cold_start_by_phase(tmp_path):
    out = tmp_path / "results"
    suite.run_benchmark("startup", out=out, data=tmp_path / "data", size="tiny")
    doc = _json(out, "startup")
    assert doc["python_pass"]["median_ms"] > 0 and doc["help"]["median_ms"] > doc["python_pass"]["median_ms"]
    cold = doc["cold_start"]
    assert cold["median_ms"] > doc["python_pass"]["median_ms"]
    phases = cold["phases_median_ms"]
    assert set(phases) == set(doc["owners"])
    for phase in ("cli_import_ms", "langgraph_langchain_import_ms", "contract_read_ms", "episode_search_ms",
                  "bootstrap_reads_span_ms"):
        assert phases[phase] > 0, phase
    inside_reads = ("embeddings_load_ms", "memory_open_ms", "episode_search_ms", "fact_search_ms")
    for run in cold["runs"]:  # one process's phases follow each other: they add up to its time, no more
        # (medians taken one by one need not: under a changing load they do not, and that is no fault)
        counted = sum(v for k, v in run["phases_ms"].items() if k not in inside_reads)
        assert counted <= run["first_model_call_ms"] * 1.02 + 1, run
    assert set(doc["targets"]) >= {"help_met", "first_call_met"}


def test_firstrun_reads_its_milestones_from_make_demo_output():
    from bench.firstrun import milestones

    lines = [(0.1, "python3 -m venv .venv"), (3.0, '.venv/bin/python -m pip install --quiet --no-compile -e .'),
             (41.2, "touch .venv/.installed-runtime"), (41.3, ".venv/bin/contract-review demo"),
             (44.0, "demo [1/25] northwind_msa_01 (memory on) (2.1 s)"),
             (44.1, "[1/16] northwind_msa_01: 84 tool calls, 55.8k tokens (memory off: 84, 55.0k)"),
             (60.0, "[2/16] northwind_msa_02: 25 tool calls, 15.4k tokens (memory off: 84, 54.5k)"),
             (70.5, "Same-template reviews in sequence, memory on")]
    assert milestones(lines) == {"install_started": 3.0, "install_done": 41.2, "first_report": 44.1, "demo_table": 70.5}


def test_realistic_drives_the_graph_with_the_slipping_stand_in(tmp_path):
    out = tmp_path / "results"
    assert main(["bench", "realistic", "--size", "tiny", "--out", str(out), "--data", str(tmp_path / "d")]) == 0
    doc = _json(out, "realistic")
    summary = doc["summary"]
    assert summary["reviews"] == 1 and summary["completed"] == 1 and summary["recall_met"]
    assert summary["memory_runs"] == summary["episodes_written"] == 3 and summary["extraction"]["failed"] == 0
    # three Northwind contracts are one counterparty: no fact (issue 31's gate), the saving stays
    assert summary["facts_after_3_runs"][0] == 0 and summary["third_northwind_tool_ratio"][0] < 0.6
    assert doc["cold"][0]["stand_in_calls"] > 40  # one or two tool calls per turn


def test_aws_bootstrap_requests_and_bytes_stay_flat_with_s3_vectors(tmp_path):
    """Issue 18: an AWS bootstrap read the tenant's whole partition (bytes grew with history).
    With a vector bucket the requests per bootstrap do not depend on the history's size and
    read fewer bytes than the partition read, which grows."""
    out = tmp_path / "out"
    suite.run_benchmark("aws", out=out, data=tmp_path / "data", size="tiny")
    doc = _json(out, "aws")
    by = {(r["setup"], r["episodes"]): r for r in doc["sizes"]}
    small, large = by[("S3 Vectors top-k", 30)], by[("S3 Vectors top-k", 90)]
    assert doc["requests_flat"] and small["requests_total"] == large["requests_total"]
    assert large["requests_per_bootstrap"]["s3vectors:QueryVectors"] >= 2  # episodes and facts
    assert "dynamodb:Query" not in large["requests_per_bootstrap"] or \
        large["requests_per_bootstrap"]["dynamodb:Query"] <= 1  # the procedure lookup only
    scan_small, scan_large = by[("partition read (no vector bucket)", 30)], by[("partition read (no vector bucket)", 90)]
    assert scan_large["bytes_total"] > 2 * scan_small["bytes_total"] and large["bytes_total"] < scan_large["bytes_total"]


def test_realistic_knows_the_planted_deviations_of_every_sample_contract():
    """Every family's labels (kestrel's live in their own file), so `bench realistic` at full size runs."""
    from bench import realistic

    labels = realistic.labels()
    assert {p.stem for p in realistic.SAMPLES.glob("*.pdf")} <= set(labels)
    assert all(isinstance(row, list) and row for row in labels.values())


def test_models_runs_every_double_memory_off_and_on_and_counts_what_memory_stored(tmp_path):
    out = tmp_path / "results"
    assert main(["bench", "models", "--size", "tiny", "--out", str(out), "--data", str(tmp_path / "d")]) == 0
    doc = _json(out, "models")
    assert [m["model"] for m in doc["models"]] == ["offline", "realistic", "batcher double", "terse double",
                                                   "stepwise double"]
    assert {m["spec"] for m in doc["models"]} >= {"bench.doubles.batcher:make", "bench.doubles.terse:make",
                                                  "bench.doubles.stepwise:make"}
    for model in doc["models"]:
        runs = model["sequences"][0]["runs"]
        assert [r["contract"] for r in runs] == ["northwind_msa_01", "northwind_msa_02"]
        assert all(r["off"]["complete"] for r in runs), model["model"]  # every double finishes memory off
        summary = model["summary"]
        assert summary["episodes_written"] == 2 and summary["deviations_planted"] > 0
        assert summary["tool_calls_on"] > 0 and len(summary["first_token_ratio"]) == 1
        # the graph's own assessments of memory's places are counted apart, and only with memory
        assert summary["graph_calls_off"] == 0 and runs[0]["on"]["graph_calls"] == 0
        assert runs[1]["on"]["graph_calls"] > 0, model["model"]
    terse = doc["models"][3]["summary"]
    assert terse["loop_off"]["calls_normalised"] > 0  # its miscased tool names and enums reached the tools
