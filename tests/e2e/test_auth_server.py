"""The demo server's `--auth` and `--api-key` (`tests/servers/demo_server/auth.py`,
`oauth.py`) over plain HTTP, as an MCP client would drive them, with no browser: what the
browser sign-in tests (`test_auth.py`) rely on, proven on its own.

`--auth`: the 401 challenge, protected-resource and authorization-server discovery,
dynamic client registration, the authorization redirect (code, state, iss), PKCE at the
token endpoint, tokens bound to their resource, step-up (403 insufficient_scope), refresh
with rotation, CORS for a page on another port, and the `--auth-log` that tells which
credentials each side received. `--api-key`: the key in either header, nothing else.
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from auth_harness import (
    EXPIRY_WAIT,
    PAGE_ORIGIN,
    REDIRECT,
    TOKEN_TTL,
    AuthServer,
    Reply,
    auth_server_factory,
    challenge_params,
    fingerprint,
    form_post,
    pkce,
    request,
)
from harness import (
    CLIENT_INFO,
    DEMO_SERVER,
    LEGACY,
    REPO,
    http_request,
    tool_text,
)

from demo_server.texts import Auth


@pytest.fixture
def auth_server(make_demo_server: Callable[..., Any], tmp_path: Path) -> Callable[..., AuthServer]:
    return auth_server_factory(make_demo_server, tmp_path)


def test_unauthorized_request_is_challenged_with_resource_metadata(auth_server: Callable[..., AuthServer]) -> None:
    server = auth_server()
    status, headers, _ = server.call(Auth.WHOAMI)
    assert status == 401
    params = challenge_params(headers["www-authenticate"])
    assert params["error"] == "invalid_token"
    assert params["resource_metadata"] == f"{server.origin}/.well-known/oauth-protected-resource/mcp"

    prm = request(params["resource_metadata"]).json()
    assert prm["resource"] == server.url
    assert prm["scopes_supported"] == [Auth.SCOPE]
    issuer = prm["authorization_servers"][0]
    assert urlsplit(issuer).port != urlsplit(server.url).port, "the authorization server is another origin"

    meta = server.as_metadata()
    assert meta["issuer"] == issuer, "the issuer is exactly the URL the resource names (RFC 8414 §3.3)"
    assert meta["authorization_endpoint"] == f"{issuer}/authorize"
    assert meta["token_endpoint"] == f"{issuer}/token"
    assert meta["registration_endpoint"] == f"{issuer}/register"
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert meta["authorization_response_iss_parameter_supported"] is True
    assert "none" in meta["token_endpoint_auth_methods_supported"]
    assert set(meta["scopes_supported"]) == {Auth.SCOPE, Auth.ADMIN_SCOPE}
    assert "offline_access" not in meta["scopes_supported"]


def test_sign_in_with_registration_pkce_and_iss(auth_server: Callable[..., AuthServer]) -> None:
    server = auth_server()
    client = server.register()
    assert "client_secret" not in client, "a public client (auth method none) gets no secret"
    verifier, challenge = pkce()
    answer = server.authorize(client["client_id"], challenge)
    assert answer["iss"] == server.issuer, "RFC 9207: the issuer comes back with the code"

    base = {
        "grant_type": "authorization_code",
        "code": answer["code"],
        "redirect_uri": REDIRECT,
        "client_id": client["client_id"],
        "resource": server.url,
    }
    wrong = server.token({**base, "code_verifier": pkce()[0]})
    assert (wrong.status, wrong.json()["error"]) == (400, "invalid_grant"), "PKCE: a wrong verifier is refused"
    # The SDK's handler checks the verifier before the code is used: the right one still works.
    tokens = server.token({**base, "code_verifier": verifier})
    assert tokens.status == 200, tokens.body
    body = tokens.json()
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == TOKEN_TTL
    assert body["scope"] == Auth.SCOPE
    assert body["refresh_token"]
    replay = server.token({**base, "code_verifier": verifier})
    assert (replay.status, replay.json()["error"]) == (400, "invalid_grant"), "a code is used once"

    status, _, answer_ = server.call(Auth.WHOAMI, body["access_token"])
    assert status == 200
    assert tool_text(answer_["result"]) == Auth.SIGNED_IN.format(scopes=Auth.SCOPE)

    # The legacy era, with a session: every request carries the token too.
    bearer = {"Authorization": f"Bearer {body['access_token']}", "Accept": "application/json, text/event-stream"}
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": CLIENT_INFO},
    }
    reply = http_request(server.url, body=init, headers=bearer)
    session = {**bearer, "Mcp-Session-Id": reply.headers["mcp-session-id"], "MCP-Protocol-Version": LEGACY}
    reply.close()
    note = http_request(server.url, body={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
    assert note.status == 202
    note.close()
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": Auth.WHOAMI, "arguments": {}}}
    messages = list(http_request(server.url, body=call, headers=session).messages())
    assert tool_text(messages[-1]["result"]) == Auth.SIGNED_IN.format(scopes=Auth.SCOPE)
    no_token = {k: v for k, v in session.items() if k != "Authorization"}
    refused = http_request(server.url, body=call, headers=no_token)
    assert refused.status == 401, "the session id is no credential"
    refused.close()
    http_request(server.url, method="DELETE", headers=session).close()

    log = server.log()
    assert [e["event"] for e in log if e["side"] == "authorization" and e["event"] != "request"] == [
        "register",
        "authorize",
        "issued",
    ]
    token_requests = [e for e in log if e["event"] == "request" and e["path"] == "/token"]
    assert [r["form"]["resource"] for r in token_requests] == [server.url] * 3


def test_authorization_for_another_resource_is_refused(auth_server: Callable[..., AuthServer]) -> None:
    server = auth_server()
    client = server.register()
    answer = server.authorize(client["client_id"], pkce()[1], resource="http://127.0.0.1:1/mcp")
    assert answer["error"] == "invalid_target"
    assert "code" not in answer
    no_resource = request(
        f"{server.issuer}/authorize?"
        + urlencode(
            {
                "response_type": "code",
                "client_id": client["client_id"],
                "redirect_uri": REDIRECT,
                "code_challenge": pkce()[1],
                "state": "s",
            }
        )
    )
    assert no_resource.status == 302
    assert parse_qs(urlsplit(no_resource.headers["location"]).query)["error"] == ["invalid_target"]


def test_step_up_needs_the_admin_scope(auth_server: Callable[..., AuthServer]) -> None:
    server = auth_server()
    first = server.sign_in()
    status, headers, _ = server.call(Auth.ADMIN_REPORT, first["access_token"])
    assert status == 403
    params = challenge_params(headers["www-authenticate"])
    assert params["error"] == "insufficient_scope"
    assert params["scope"].split() == [Auth.SCOPE, Auth.ADMIN_SCOPE]
    assert params["resource_metadata"] == f"{server.origin}/.well-known/oauth-protected-resource/mcp"
    # Other tools still work with the narrower token.
    assert server.call(Auth.WHOAMI, first["access_token"])[0] == 200

    wider = server.sign_in(scope=params["scope"])
    status, _, answer = server.call(Auth.ADMIN_REPORT, wider["access_token"])
    assert status == 200
    assert tool_text(answer["result"]) == Auth.REPORT.format(scopes="admin mcp")


def test_consent_page_allows_or_denies(auth_server: Callable[..., AuthServer]) -> None:
    """`--consent`: the authorization endpoint sends the browser to a page with Allow and
    Deny, whose answer then goes back to the redirect URI."""
    server = auth_server(["--auth", "--consent"])
    client = server.register()

    def ask() -> tuple[str, str]:
        state = "st-" + secrets.token_hex(4)
        query = {
            "response_type": "code",
            "client_id": client["client_id"],
            "redirect_uri": REDIRECT,
            "code_challenge": pkce()[1],
            "state": state,
            "resource": server.url,
        }
        reply = request(f"{server.issuer}/authorize?{urlencode(query)}")
        assert reply.status == 302
        page_url = reply.headers["location"]
        assert page_url.startswith(f"{server.issuer}/consent?request=")
        page = request(page_url)
        assert page.status == 200
        assert b">Allow</button>" in page.body and b">Deny</button>" in page.body
        return parse_qs(urlsplit(page_url).query)["request"][0], state

    def answer(request_id: str, decision: str) -> Reply:
        return form_post(f"{server.issuer}/consent", {"request": request_id, "decision": decision})

    denied_id, state = ask()
    denied = answer(denied_id, "deny")
    assert denied.status == 302
    back = parse_qs(urlsplit(denied.headers["location"]).query)
    assert denied.headers["location"].startswith(REDIRECT)
    assert (back["error"], back["state"], back["iss"]) == (["access_denied"], [state], [server.issuer])
    assert answer(denied_id, "allow").status == 400, "an answered request is gone"

    allowed_id, state = ask()
    allowed = answer(allowed_id, "allow")
    back = parse_qs(urlsplit(allowed.headers["location"]).query)
    assert back["code"] and back["state"] == [state] and back["iss"] == [server.issuer]
    assert [e["allowed"] for e in server.log() if e["event"] == "consent"] == [False, True]


def wait_until_refused(server: AuthServer, token: str) -> None:
    """Polls until the server refuses `token` (its TTL has passed); bounded against hangs."""
    deadline = time.monotonic() + EXPIRY_WAIT
    while server.call(Auth.WHOAMI, token)[0] != 401:
        assert time.monotonic() < deadline, "the access token was never refused"
        time.sleep(0.25)


def test_refresh_rotates_and_the_old_tokens_stop(auth_server: Callable[..., AuthServer]) -> None:
    server = auth_server()
    first = server.sign_in()
    wait_until_refused(server, first["access_token"])
    fields = {"grant_type": "refresh_token", "client_id": first["client_id"], "resource": server.url}
    refreshed = server.token({**fields, "refresh_token": first["refresh_token"]})
    assert refreshed.status == 200, refreshed.body
    second = refreshed.json()
    assert second["access_token"] != first["access_token"]
    assert second["refresh_token"] != first["refresh_token"]
    assert server.call(Auth.WHOAMI, second["access_token"])[0] == 200
    again = server.token({**fields, "refresh_token": first["refresh_token"]})
    assert (again.status, again.json()["error"]) == (400, "invalid_grant"), "a refresh token is used once"
    grants = [e["grant"] for e in server.log() if e["event"] == "issued"]
    assert grants == ["authorization_code", "refresh_token"]


def test_tokens_of_one_server_are_refused_by_another(auth_server: Callable[..., AuthServer]) -> None:
    one, two = auth_server(), auth_server()
    assert one.issuer != two.issuer
    token = one.sign_in()["access_token"]
    assert one.call(Auth.WHOAMI, token)[0] == 200
    assert two.call(Auth.WHOAMI, token)[0] == 401
    # Each log: the resource side received only what its own authorization server issued.
    for server in (one, two):
        log = server.log()
        issued = {e["access_token"] for e in log if e["event"] == "issued"}
        seen = {
            e["authorization"]["credential"]
            for e in log
            if e["side"] == "resource" and e["event"] == "request" and e["authorization"]
        }
        assert issued == ({fingerprint(token)} if server is one else set())
        assert seen == {fingerprint(token)}
    assert [e["status"] for e in two.log() if e["side"] == "resource" and e["authorization"]] == [401]


def test_cors_lets_a_page_on_another_port_sign_in(auth_server: Callable[..., AuthServer]) -> None:
    server = auth_server()
    preflight = request(
        server.url,
        "OPTIONS",
        headers={
            "Origin": PAGE_ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version",
        },
    )
    assert preflight.status == 200
    assert preflight.headers["access-control-allow-origin"] == PAGE_ORIGIN
    assert "authorization" in preflight.headers["access-control-allow-headers"].lower()
    status, headers, _ = server.call(Auth.WHOAMI, headers={"Origin": PAGE_ORIGIN})
    assert status == 401
    assert headers["access-control-allow-origin"] == PAGE_ORIGIN
    exposed = {h.strip().lower() for h in headers["access-control-expose-headers"].split(",")}
    assert {"www-authenticate", "mcp-session-id"} <= exposed

    prm = request(f"{server.origin}/.well-known/oauth-protected-resource/mcp", headers={"Origin": PAGE_ORIGIN})
    assert prm.headers["access-control-allow-origin"] in (PAGE_ORIGIN, "*")
    for path, method in [("/.well-known/oauth-authorization-server", "GET"), ("/register", "POST"), ("/token", "POST")]:
        pre = request(
            f"{server.issuer}{path}",
            "OPTIONS",
            headers={
                "Origin": PAGE_ORIGIN,
                "Access-Control-Request-Method": method,
                "Access-Control-Request-Headers": "content-type, mcp-protocol-version",
            },
        )
        assert pre.status == 200, (path, pre.body)
        assert pre.headers["access-control-allow-origin"] == PAGE_ORIGIN, path
    meta = request(f"{server.issuer}/.well-known/oauth-authorization-server", headers={"Origin": PAGE_ORIGIN})
    assert meta.headers["access-control-allow-origin"] == PAGE_ORIGIN
    # The authorization endpoint is a page the browser goes to, not one it reads: no CORS needed.


KEY = "demo-key-" + "7" * 8


@pytest.mark.parametrize(
    "headers",
    [{"Authorization": f"Bearer {KEY}"}, {"X-API-Key": KEY}],
    ids=["authorization-bearer", "x-api-key"],
)
def test_api_key_in_either_header(auth_server: Callable[..., AuthServer], headers: dict[str, str]) -> None:
    server = auth_server(["--api-key", KEY])
    status, _, answer = server.call(Auth.WHOAMI, headers=headers)
    assert status == 200
    assert tool_text(answer["result"]) == Auth.API_KEY
    seen = [e for e in server.log() if e["event"] == "request" and e["path"] == "/mcp"]
    fingerprints = [e["x_api_key"] or e["authorization"]["credential"] for e in seen]
    assert fingerprints == [fingerprint(KEY)]


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"X-API-Key": "wrong"}, {"Authorization": KEY}],
    ids=["none", "wrong-bearer", "wrong-x-api-key", "no-scheme"],
)
def test_api_key_missing_or_wrong_is_refused(auth_server: Callable[..., AuthServer], headers: dict[str, str]) -> None:
    server = auth_server(["--api-key", KEY])
    status, reply_headers, body = server.call(Auth.WHOAMI, headers=headers)
    assert status == 401
    params = challenge_params(reply_headers["www-authenticate"])
    assert params["error"] == "invalid_token"
    assert "resource_metadata" not in params, "nothing to sign in to"
    assert json.loads(body)["error_description"] == Auth.API_KEY_MISSING
    # Nothing else about the server asks for the key (no OAuth discovery documents either).
    assert request(f"{server.origin}/.well-known/oauth-protected-resource/mcp").status == 404


def test_options_refuse_nonsense(tmp_path: Path) -> None:
    """`--auth` with `--api-key`, or a TTL below a second, stops the server with a reason."""
    for options in (["--auth", "--api-key", "k"], ["--auth", "--token-ttl", "0"], ["--api-key", ""]):
        done = subprocess.run(
            [sys.executable, str(DEMO_SERVER), "--port", "0", *options],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=REPO,
        )
        assert done.returncode != 0, options
        assert "--" in done.stderr, done.stderr

