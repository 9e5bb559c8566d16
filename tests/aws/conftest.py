"""AWS tests run when the optional AWS pieces (boto3, moto) are installed; fixtures in fixtures.py."""

import importlib.util

if all(importlib.util.find_spec(name) for name in ("boto3", "moto")):
    from tests.aws.fixtures import aws, kb  # noqa: F401  (fixtures)
else:  # the aws extra is optional: without it there is nothing here to test
    collect_ignore_glob = ["test_*.py"]
