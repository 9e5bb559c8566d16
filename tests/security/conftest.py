"""Security tests run on the embedded SQLite backend and on AWS (moto); see support.py."""

from tests.security.support import backend  # noqa: F401  (fixture)
