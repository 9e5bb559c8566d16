"""Fixtures of the model tests."""

import pytest


@pytest.fixture
def aws_keys(monkeypatch):
    """Fake AWS keys (botocore signs with them; no request leaves the machine), no instance metadata."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
