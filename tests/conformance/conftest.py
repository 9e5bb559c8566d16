"""Every conformance test gets a fresh `backend` per factory in tests/backends.py."""

from tests.conformance.support import backend  # noqa: F401  (fixture)
