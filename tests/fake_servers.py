"""Local fake model servers on 127.0.0.1 for tests: the real clients (botocore, the ollama client)
talk HTTP to them, so retries, timeouts, error parsing and request bodies are exercised for real.

`FakeServer(script)` answers each request with the next scripted `Reply` (the last one repeats)
and records every request (path and JSON body). Use it as a context manager; `url` is its base URL.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # dict/list -> JSON; str -> as is; list of dicts with ndjson=True -> one per line
    headers: dict[str, str] = field(default_factory=dict)
    ndjson: bool = False
    delay: float = 0.0  # seconds before answering (to trip a client's read timeout)


def bedrock_error(code: str, message: str, status: int) -> Reply:
    """An error as Bedrock Runtime sends it (restJson1: error type header and message body)."""
    return Reply(status=status, body={"message": message}, headers={"x-amzn-ErrorType": f"{code}:http://internal"})


def converse_text(text: str = "done", *, usage: dict[str, int] | None = None) -> Reply:
    return Reply(body={"output": {"message": {"role": "assistant", "content": [{"text": text}]}},
                       "stopReason": "end_turn", "metrics": {"latencyMs": 5},
                       "usage": usage or {"inputTokens": 10, "outputTokens": 2, "totalTokens": 12}})


@dataclass
class Request:
    method: str
    path: str
    body: Any


class FakeServer:
    def __init__(self, script: list[Reply]):
        self.script = list(script)
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except json.JSONDecodeError:
                    body = raw.decode(errors="replace")
                with server._lock:
                    server.requests.append(Request(self.command, self.path, body))
                    reply = server.script.pop(0) if len(server.script) > 1 else server.script[0]
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.ndjson:
                    payload = "".join(json.dumps(item) + "\n" for item in reply.body).encode()
                    kind = "application/x-ndjson"
                elif isinstance(reply.body, str):
                    payload, kind = reply.body.encode(), "text/plain"
                else:
                    payload, kind = json.dumps(reply.body if reply.body is not None else {}).encode(), "application/json"
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", kind)
                    self.send_header("content-length", str(len(payload)))
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a read timeout)
                    pass

            do_POST = _answer  # noqa: N815 (http.server's naming)
            do_GET = _answer  # noqa: N815

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False  # a handler still sleeping out a timeout must not hold up close
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
