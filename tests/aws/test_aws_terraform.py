"""The Terraform in infrastructure/ matches the code's table layout and passes checkov.

The AWS provider cannot be installed here, so the .tf files are parsed (python-hcl2) and compared
with memory/backends/aws/schema.py, and checkov scans them statically; expressions that must agree
with the code (the vector index names a tenant role may reach) are evaluated by `terraform
console`, which needs no provider, when a terraform binary is on PATH. checkov pins an old boto3
(==1.35.x) that conflicts with the project's, so it runs from its own tool venv under
.venv-tools/checkov, created on first use.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

hcl2 = pytest.importorskip("hcl2")

from memory.backends.aws import schema  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
INFRA = ROOT / "infrastructure"
TOOL_VENV = ROOT / ".venv-tools" / "checkov"
CHECKOV_SPEC = "checkov>=3.2,<4"
PREFIX = "${var.table_prefix}"


def _unquote(value: Any) -> Any:
    """python-hcl2 keeps string quotes ('"pk"'); strip them, recursively."""
    if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    if isinstance(value, list):
        return [_unquote(v) for v in value]
    if isinstance(value, dict):
        return {_unquote(k): _unquote(v) for k, v in value.items() if not str(k).startswith("__")}
    return value


def _resources() -> dict[str, dict[str, dict[str, Any]]]:
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for path in sorted(INFRA.rglob("*.tf")):  # the root module and modules/*
        parsed = _unquote(hcl2.loads(path.read_text()))
        for block in parsed.get("resource", []):
            for kind, named in block.items():
                for name, body in named.items():
                    found.setdefault(kind, {})[name] = body
    return found


def _tables() -> dict[str, dict[str, Any]]:
    return {body["name"]: body for body in _resources()["aws_dynamodb_table"].values()}


def _keys(schema_keys: list[dict[str, str]]) -> tuple[str, str | None]:
    by_type = {k["KeyType"]: k["AttributeName"] for k in schema_keys}
    return by_type["HASH"], by_type.get("RANGE")


def test_every_table_the_code_uses_is_declared_with_the_same_keys_and_attributes():
    tables = _tables()
    specs = schema.table_specs(PREFIX)
    assert set(tables) == {spec["TableName"] for spec in specs.values()}
    for spec in specs.values():
        table = tables[spec["TableName"]]
        assert (table["hash_key"], table["range_key"]) == _keys(spec["KeySchema"]), spec["TableName"]
        declared = {a["name"]: a["type"] for a in table["attribute"]}
        expected = {a["AttributeName"]: a["AttributeType"] for a in spec["AttributeDefinitions"]}
        assert declared == expected, spec["TableName"]
        assert table["billing_mode"] == "PAY_PER_REQUEST"
        assert table["point_in_time_recovery"][0]["enabled"] is True
        assert table["server_side_encryption"][0]["enabled"] is True


def test_indexes_match_the_code():
    tables = _tables()
    for spec in schema.table_specs(PREFIX).values():
        table = tables[spec["TableName"]]
        gsis = {g["name"]: (g["hash_key"], g.get("range_key"), g["projection_type"])
                for g in table.get("global_secondary_index", [])}
        assert gsis == {
            g["IndexName"]: (*_keys(g["KeySchema"]), g["Projection"]["ProjectionType"])
            for g in spec.get("GlobalSecondaryIndexes", [])
        }, spec["TableName"]
        # an LSI shares the table's hash key; Terraform declares only its range key
        lsis = {i["name"]: (i["range_key"], i["projection_type"]) for i in table.get("local_secondary_index", [])}
        expected = {}
        for index in spec.get("LocalSecondaryIndexes", []):
            hash_key, range_key = _keys(index["KeySchema"])
            assert hash_key == table["hash_key"]
            expected[index["IndexName"]] = (range_key, index["Projection"]["ProjectionType"])
        assert lsis == expected, spec["TableName"]


def test_ttl_is_on_the_attribute_the_code_writes():
    tables = _tables()
    for logical, spec in schema.table_specs(PREFIX).items():
        ttl = tables[spec["TableName"]].get("ttl")
        if logical in schema.TTL_ATTRIBUTES:
            assert ttl == [{"attribute_name": schema.TTL_ATTRIBUTES[logical], "enabled": True}]
        else:
            assert ttl is None


def test_tenant_roles_are_confined_to_their_own_partitions():
    text = (INFRA / "iam.tf").read_text()
    policy = _unquote(hcl2.loads(text))["data"]
    tenant = next(b["aws_iam_policy_document"]["tenant"] for b in policy if "tenant" in b.get("aws_iam_policy_document", {}))
    statements = {s["sid"]: s for s in tenant["statement"]}
    data_access = statements["OwnPartitionsOnly"]
    assert data_access["condition"] == [
        {"test": "ForAllValues:StringLike", "variable": "dynamodb:LeadingKeys",
         "values": ["${each.value}", "${each.value}/*"]}
    ]
    every_action = [a for s in tenant["statement"] for a in s["actions"]]
    assert "dynamodb:Scan" not in every_action  # a Scan has no leading key to confine
    assert all(not a.endswith("*") for a in every_action)
    assert statements["OwnFactDocumentsOnly"]["resources"] == [
        "${aws_s3_bucket.facts.arn}/${var.facts_prefix}/${each.value}/*"
    ]


def test_bucket_is_versioned_encrypted_and_private():
    resources = _resources()
    assert resources["aws_s3_bucket_versioning"]["facts"]["versioning_configuration"][0]["status"] == "Enabled"
    block = resources["aws_s3_bucket_public_access_block"]["facts"]
    assert all(block[k] is True for k in ("block_public_acls", "block_public_policy", "ignore_public_acls",
                                          "restrict_public_buckets"))
    rule = resources["aws_s3_bucket_server_side_encryption_configuration"]["facts"]["rule"][0]
    assert rule["apply_server_side_encryption_by_default"][0]["sse_algorithm"] == "aws:kms"


def test_decay_job_runs_the_handler_on_a_schedule():
    resources = _resources()
    function = resources["aws_lambda_function"]["decay"]
    assert function["handler"] == "memory.decay_lambda.handler"
    module = function["handler"].rsplit(".", 1)[0]
    assert (ROOT / (module.replace(".", "/") + ".py")).is_file()
    assert resources["aws_cloudwatch_event_rule"]["decay"]["schedule_expression"] == "${var.decay_schedule}"
    assert resources["aws_cloudwatch_event_target"]["decay"]["arn"] == "${aws_lambda_function.decay.arn}"


def test_variables_and_outputs_are_documented():
    for name in ("variables.tf", "outputs.tf"):
        parsed = _unquote(hcl2.loads((INFRA / name).read_text()))
        blocks = parsed.get("variable" if name == "variables.tf" else "output", [])
        assert blocks
        for block in blocks:
            for key, body in block.items():
                assert body.get("description"), f"{name}: {key} has no description"


def _checkov() -> Path:
    binary = TOOL_VENV / "bin" / "checkov"
    if binary.exists():
        return binary
    try:
        subprocess.run([sys.executable, "-m", "venv", str(TOOL_VENV)], check=True, capture_output=True, timeout=120)
        subprocess.run([str(TOOL_VENV / "bin" / "python"), "-m", "pip", "install", "--quiet", CHECKOV_SPEC],
                       check=True, capture_output=True, text=True, timeout=900)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        output = getattr(exc, "stderr", "") or ""
        pytest.skip(f"checkov could not be installed into {TOOL_VENV} (is PyPI reachable?): {str(output)[-300:]}")
    return binary


def test_checkov_finds_no_failed_check():
    checkov = _checkov()
    env = {**os.environ, "BC_SKIP_MAPPING": "TRUE", "CHECKOV_RUN_SCA_PACKAGE_SCAN_V2": "false"}
    run = subprocess.run(
        [str(checkov), "-d", str(INFRA), "--framework", "terraform", "--skip-download", "-o", "json"],
        capture_output=True, text=True, timeout=300, env=env,
    )
    report = json.loads(run.stdout)
    report = report[0] if isinstance(report, list) else report
    failed = [f"{c['check_id']} {c['resource']} ({c['file_path']})" for c in report["results"]["failed_checks"]]
    assert failed == []
    assert report["summary"]["parsing_errors"] == 0
    assert report["summary"]["passed"] > 100  # it really scanned the resources
    for skipped in report["results"]["skipped_checks"]:  # every skip says why
        assert len(skipped["check_result"].get("suppress_comment", "")) > 20, skipped["check_id"]


def _terraform_eval(expression: str) -> Any:
    """Evaluate one HCL expression with `terraform console` (no providers, no state)."""
    terraform = shutil.which("terraform")
    if terraform is None:
        pytest.skip("terraform is not on PATH")
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([terraform, "console"], input=expression, capture_output=True, text=True, cwd=folder,
                              env={**os.environ, "TF_CLI_CONFIG_FILE": os.devnull}, timeout=60, check=True)
    return json.loads(done.stdout.strip().replace(",\n]", "\n]"))


def test_tenant_roles_reach_only_their_own_vector_indexes():
    """The index names the backend derives (memory.backends.aws.vectors.index_name) fall under the
    tenant's IAM resources, as Terraform computes them, and no other tenant's do."""
    from fnmatch import fnmatchcase

    from memory.backends.aws.vectors import EPISODES, FACTS, index_name, slug

    locals_ = {k: v for block in _unquote(hcl2.loads((INFRA / "vectors.tf").read_text()))["locals"]
               for k, v in block.items()}
    policy = _unquote(hcl2.loads((INFRA / "iam.tf").read_text()))["data"]
    tenant = next(b["aws_iam_policy_document"]["tenant"] for b in policy if "tenant" in b.get("aws_iam_policy_document", {}))
    statement = next(s for s in tenant["statement"] if s["sid"] == "OwnVectorIndexesOnly")
    assert "s3vectors:QueryVectors" in statement["actions"] and "s3vectors:PutVectors" in statement["actions"]
    resources = statement["resources"]
    assert isinstance(resources, str) and resources.startswith("${") and resources.endswith("}")
    for prefix in ["cma", "Legal_Team.prod", "--x--", "a-very-long-table-prefix-for-testing"]:
        raw = _terraform_eval(locals_["vector_slug_raw"][2:-1].replace("var.table_prefix", json.dumps(prefix)))
        assert (raw or "cma") == slug(prefix)
        for own, other in [("acme", "acme2"), ("globex", "acme")]:
            patterns = _terraform_eval(resources[2:-1].replace("local.vector_index_arn", '"ARN"')
                                       .replace("local.vector_index_slug", json.dumps(slug(prefix)))
                                       .replace("each.value", json.dumps(own)))
            for kind in (EPISODES, FACTS):
                for model in ("amazon.titan-embed-text-v2:0", "wordllama-l2-supercat-256"):
                    assert any(fnmatchcase(f"ARN/{index_name(prefix, kind, own, model)}", p) for p in patterns)
                    assert not any(fnmatchcase(f"ARN/{index_name(prefix, kind, other, model)}", p) for p in patterns)


def test_vector_bucket_is_encrypted_with_the_memory_key_and_the_indexing_service_may_use_it():
    resources = _resources()
    for name in ("memory", "kb"):  # in modules/s3_vectors, given the memory key by the root module
        bucket = resources["aws_s3vectors_vector_bucket"][name]
        assert bucket["encryption_configuration"] == [{"sse_type": "aws:kms", "kms_key_arn": "${var.kms_key_arn}"}]
    module = next(body for block in _unquote(hcl2.loads((INFRA / "vectors.tf").read_text()))["module"]
                  for name, body in block.items() if name == "s3_vectors")
    assert module["kms_key_arn"] == "${aws_kms_key.memory.arn}"
    policy = (INFRA / "kms.tf").read_text()
    assert 'Principal = { Service = "indexing.s3vectors.amazonaws.com" }' in policy
    assert '"aws:SourceAccount" = data.aws_caller_identity.current.account_id' in policy


def _terraform_check(folder: Path) -> subprocess.CompletedProcess:
    if shutil.which("terraform") is None:
        pytest.skip("terraform is not on PATH")
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "terraform_check.py"), str(folder)],
                          capture_output=True, text=True, timeout=600)


def test_terraform_fmt_and_validate_pass_with_the_provider_this_machine_has():
    """What .ci/run runs: fmt -check, and validate of everything but the S3 Vectors module (which
    needs hashicorp/aws >= 6.28) against the provider mirror; the module is validated where a
    provider it accepts is installed, and says so where none is."""
    done = _terraform_check(INFRA)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "terraform fmt -check: ok" in done.stdout
    assert "terraform validate (root, hashicorp/aws" in done.stdout and "stood in): ok" in done.stdout
    assert "modules/s3_vectors" in done.stdout


def test_terraform_check_fails_on_a_broken_reference_and_on_bad_formatting(tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(INFRA, broken, ignore=shutil.ignore_patterns(".terraform*", "build"))
    outputs = broken / "outputs.tf"
    outputs.write_text(outputs.read_text().replace("module.s3_vectors.memory_bucket_name",
                                                   "module.s3_vectors.no_such_output", 1))
    done = _terraform_check(broken)
    assert done.returncode == 1 and "FAILED" in done.stdout and "no_such_output" in done.stdout
    shutil.rmtree(broken)
    shutil.copytree(INFRA, broken, ignore=shutil.ignore_patterns(".terraform*", "build"))
    (broken / "s3.tf").write_text((broken / "s3.tf").read_text().replace("  ", "    ", 3))
    done = _terraform_check(broken)
    assert done.returncode == 1 and "fmt -check" in done.stdout


def test_every_s3_vectors_resource_sits_in_its_own_module():
    """The provider mirror cannot validate aws_s3vectors_* or the Knowledge Base's S3_VECTORS
    storage; the root module must hold none of them, so it validates everywhere."""
    for path in INFRA.glob("*.tf"):
        text = path.read_text()
        assert 'resource "aws_s3vectors_' not in text, path.name
        assert "s3_vectors_configuration" not in text, path.name
