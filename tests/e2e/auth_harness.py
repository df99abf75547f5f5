"""Helpers for the sign-in tests (`test_auth_server.py` over plain HTTP, `test_auth.py` in
the browser): the demo server with `--auth` / `--api-key`, its discovery, a plain-HTTP
OAuth client, and its `--auth-log`. Kept free of pytest but for the fixture factory."""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from harness import ModernClient, read_json_lines

REDIRECT = "http://127.0.0.1:1/oauth-callback.html"
"""A redirect URI nothing listens on: the redirect is read, never followed."""
PAGE_ORIGIN = "http://127.0.0.1:1"
TOKEN_TTL = 2
"""Seconds an access token lives in these tests (the refresh test waits this long)."""
EXPIRY_WAIT = 30.0
"""Upper bound for a token to be refused after its TTL: a bound against hangs only."""


class Reply:
    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)


def request(
    url: str, method: str = "GET", body: bytes | None = None, headers: dict[str, str] | None = None
) -> Reply:
    """One HTTP request; redirects are returned, never followed."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=30)
    try:
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
    finally:
        conn.close()


def form_post(url: str, fields: dict[str, str], headers: dict[str, str] | None = None) -> Reply:
    all_headers = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
    return request(url, "POST", urlencode(fields).encode(), all_headers)


def challenge_params(value: str) -> dict[str, str]:
    """The auth-params of a `Bearer k="v", ...` challenge (values without commas or quotes)."""
    scheme, _, rest = value.partition(" ")
    assert scheme == "Bearer", value
    params = {}
    for part in rest.split(", "):
        key, _, quoted = part.partition("=")
        params[key.strip()] = quoted.strip().strip('"')
    return params


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


def fingerprint(value: str) -> str:
    """As `--auth-log` writes a credential (`demo_server.auth.fingerprint`)."""
    return hashlib.sha256(value.encode()).hexdigest()[:16]


class AuthServer:
    """A demo server started with `--auth` (or `--api-key`), and what its discovery says."""

    def __init__(self, server: Any, log: Path):
        self.server = server
        self.log_path = log
        self.url: str = server.url
        self.origin: str = server.origin
        self._issuer: str | None = None

    @property
    def issuer(self) -> str:
        if self._issuer is None:
            prm = request(f"{self.origin}/.well-known/oauth-protected-resource/mcp").json()
            self._issuer = prm["authorization_servers"][0]
        return self._issuer

    def as_metadata(self) -> dict[str, Any]:
        return request(f"{self.issuer}/.well-known/oauth-authorization-server").json()

    def log(self) -> list[dict[str, Any]]:
        return read_json_lines(self.log_path)

    def register(self, **metadata: Any) -> dict[str, Any]:
        body = {"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none", "client_name": "t", **metadata}
        reply = request(
            f"{self.issuer}/register", "POST", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        assert reply.status == 201, reply.body
        return reply.json()

    def authorize(self, client_id: str, challenge: str, **extra: str) -> dict[str, str]:
        """The authorization response: the redirect's query, checked to go to REDIRECT."""
        query = {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": REDIRECT,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "state": "st-" + secrets.token_hex(4),
            "resource": self.url,
            **extra,
        }
        reply = request(f"{self.issuer}/authorize?{urlencode(query)}")
        assert reply.status == 302, reply.body
        location = reply.headers["location"]
        assert location.split("?")[0] == REDIRECT
        answer = {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}
        if "code" in answer:
            assert answer["state"] == query["state"]
        return answer

    def token(self, fields: dict[str, str]) -> Reply:
        return form_post(f"{self.issuer}/token", fields)

    def sign_in(self, scope: str | None = None) -> dict[str, Any]:
        """Registration, authorization and the code exchange: the token response, plus `client_id`."""
        client = self.register()
        verifier, challenge = pkce()
        extra = {"scope": scope} if scope else {}
        answer = self.authorize(client["client_id"], challenge, **extra)
        reply = self.token(
            {
                "grant_type": "authorization_code",
                "code": answer["code"],
                "redirect_uri": REDIRECT,
                "client_id": client["client_id"],
                "code_verifier": verifier,
                "resource": self.url,
            }
        )
        assert reply.status == 200, reply.body
        return {**reply.json(), "client_id": client["client_id"]}

    def call(self, tool: str, token: str | None = None, headers: dict[str, str] | None = None) -> Any:
        """`tools/call` in the 2026-07-28 era: the HTTP reply (status, headers) and its JSON-RPC answer."""
        all_headers = dict(headers or {})
        if token is not None:
            all_headers["Authorization"] = f"Bearer {token}"
        reply = ModernClient(self.url).post("tools/call", {"name": tool, "arguments": {}}, tool, all_headers)
        if reply.status != 200:
            body = reply.text()
            return reply.status, reply.headers, body
        answer = next(m for m in reply.messages() if isinstance(m, dict) and "id" in m)
        reply.close()
        return reply.status, reply.headers, answer


def auth_server_factory(make_demo_server: Callable[..., Any], tmp_path: Path) -> Callable[..., AuthServer]:
    """For an `auth_server` fixture: `auth_server()` starts a demo server with `--auth` (`options` replace it),
    `--token-ttl TOKEN_TTL` and an `--auth-log`; `make_demo_server` stops it after the test."""
    count = iter(range(1, 100))

    def make(options: list[str] | None = None) -> AuthServer:
        log = tmp_path / f"auth-{next(count)}.jsonl"
        opts = options if options is not None else ["--auth", "--token-ttl", str(TOKEN_TTL)]
        return AuthServer(make_demo_server([*opts, "--auth-log", str(log)]), log)

    return make
