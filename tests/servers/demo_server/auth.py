"""`--auth` and `--api-key`: a demo server that asks for credentials, as the servers people
use on the internet do.

`--auth`: the MCP endpoint is an OAuth protected resource, through the SDK's own auth
support (`MCPServer(auth=AuthSettings(...), token_verifier=...)`): a request without a
valid token gets `401` with `WWW-Authenticate: Bearer error="invalid_token", ...,
resource_metadata="<origin>/.well-known/oauth-protected-resource/mcp"`, and that protected
resource metadata (RFC 9728, the SDK's route) names the authorization server and
`scopes_supported: ["mcp"]`. Tokens must carry `mcp` and have been issued for this
endpoint (`validate_token_resource`).

The authorization server (`demo_server.oauth`) runs in the same process on another port
(`--auth-port`, default any free one), so it is another origin, as it is in the wild:
the same uvicorn serves both sockets and `PortDispatch` sends each request to its app by
the port it came in on. `--consent`: it shows an Allow / Deny page instead of approving at
once (`demo_server.oauth`). Its access tokens live `--token-ttl` seconds (default 3600; a few
seconds let a test see a refresh), refresh tokens until used (they rotate).

Step-up: `admin_report` needs the scope `admin` besides `mcp`. Called with a token without
it, the call gets `403` with `WWW-Authenticate: Bearer error="insufficient_scope",
scope="mcp admin", resource_metadata="..."` before the SDK sees it (`StepUpMiddleware`).
`whoami` answers with the scopes of the token it was called with.

`--api-key KEY`: no OAuth; every request to `/mcp` must carry the key, as
`Authorization: Bearer KEY` or as `X-API-Key: KEY` (either is enough), else `401` with
`WWW-Authenticate: Bearer error="invalid_token"` and no `resource_metadata` (nothing to sign
in to). `whoami` answers that an API key was used. Exclusive with `--auth`.

CORS: both origins answer loopback pages (or the `--cors-origin`s; none with `--no-cors`),
allow `Authorization` and `X-API-Key`, and expose `WWW-Authenticate` and `Mcp-Session-Id`.

`--auth-log FILE`: a JSON line for each request either side receives and for each thing the
authorization server does, so a test can tell which credentials went where. Credentials
are never written, only their fingerprints: `fingerprint(value)` = the first 16 hex digits
of SHA-256 of the credential (the token, without `Bearer `). Lines:
- `{"side": "resource" | "authorization", "event": "request", "method", "path", "status",
  "authorization": {"scheme", "credential"} | null, "x_api_key": fingerprint | null}`;
  on the authorization side also `"form"`: the non-secret fields of a form body
  (`grant_type`, `resource`, `scope`, `redirect_uri`, `client_id`) and the names of all.
- `{"side": "authorization", "event": "register", "client_id", "redirect_uris", ...}`,
  `"authorize"` (`client_id`, `scopes`, `resource`, `redirect_uri`), and `"issued"`
  (`grant`: `authorization_code` | `refresh_token`, `client_id`, `scopes`, `resource`,
  `access_token` and `refresh_token` fingerprints, `expires_in`).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import ProviderTokenVerifier
from mcp.server.auth.routes import build_resource_metadata_url
from mcp.server.auth.settings import AuthSettings
from pydantic import AnyHttpUrl
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware

from .middleware import buffered_body, json_rpc_method
from .oauth import DemoProvider, authorization_app
from .texts import Auth

DEFAULT_TOKEN_TTL = 3600
STEP_UP = {Auth.ADMIN_REPORT: [Auth.SCOPE, Auth.ADMIN_SCOPE]}
"""Tools that need more than `mcp`: name -> every scope the call needs."""
AS_CORS_HEADERS = ["authorization", "content-type", "accept", "mcp-protocol-version"]
LOGGED_FORM_FIELDS = ("grant_type", "resource", "scope", "redirect_uri", "client_id")
"""Form fields of an authorization-server request the log shows in full (none is secret)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("credentials (see demo_server.auth)")
    group.add_argument(
        "--auth",
        action="store_true",
        help="OAuth: /mcp needs a bearer token from an authorization server run on --auth-port",
    )
    group.add_argument(
        "--auth-port", type=int, default=0, metavar="PORT", help="the authorization server's port (0: any free one)"
    )
    group.add_argument(
        "--token-ttl",
        type=int,
        default=DEFAULT_TOKEN_TTL,
        metavar="SECONDS",
        help=f"how long an access token lives (default {DEFAULT_TOKEN_TTL})",
    )
    group.add_argument(
        "--consent",
        action="store_true",
        help="the authorization server shows an Allow / Deny page instead of approving at once",
    )
    group.add_argument(
        "--api-key", metavar="KEY", help="/mcp needs 'Authorization: Bearer KEY' or 'X-API-Key: KEY' (no OAuth)"
    )
    group.add_argument(
        "--auth-log", metavar="FILE", help="append a JSON line per request and per grant (credentials fingerprinted)"
    )


def fingerprint(value: str) -> str:
    """What the log writes for a credential: 16 hex digits of its SHA-256."""
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:16]


class AuthLog:
    """`--auth-log`: JSON lines, appended whole; nothing written without a path."""

    def __init__(self, path: str | None):
        self.path = path

    fingerprint = staticmethod(fingerprint)

    def write(self, **record: Any) -> None:
        if self.path is None:
            return
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")


def credentials(scope: Any) -> dict[str, Any]:
    """The fingerprints of the credentials a request carries (`Authorization`, `X-API-Key`)."""
    headers = Headers(scope=scope)
    authorization = headers.get("authorization")
    api_key = headers.get("x-api-key")
    seen: dict[str, Any] = {"authorization": None, "x_api_key": None}
    if authorization is not None:
        scheme, _, credential = authorization.partition(" ")
        seen["authorization"] = {"scheme": scheme, "credential": fingerprint(credential.strip())}
    if api_key is not None:
        seen["x_api_key"] = fingerprint(api_key)
    return seen


class AuthLogMiddleware:
    """Writes one `request` line per HTTP request when its response starts (so a stream
    still open is already there), or when it ends without one."""

    def __init__(self, app: Any, log: AuthLog, side: str):
        self.app = app
        self.log = log
        self.side = side

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        record: dict[str, Any] = {
            "side": self.side,
            "event": "request",
            "method": scope["method"],
            "path": scope["path"],
            **credentials(scope),
        }
        form = Headers(scope=scope).get("content-type", "").startswith("application/x-www-form-urlencoded")
        if self.side == "authorization" and scope["method"] == "POST" and form:
            body, receive = await buffered_body(receive)
            record["form"] = form_summary(body)
        written = False

        async def logging_send(message: Any) -> None:
            nonlocal written
            if message["type"] == "http.response.start" and not written:
                written = True
                self.log.write(**record, status=message["status"])
            await send(message)

        try:
            await self.app(scope, receive, logging_send)
        finally:
            if not written:
                self.log.write(**record, status=None)


def form_summary(body: bytes) -> dict[str, Any]:
    """The field names of a form body, and the values of the fields that are not secret."""
    try:
        fields = parse_qs(body.decode("utf-8"), keep_blank_values=True)
    except (UnicodeDecodeError, ValueError):
        return {"names": []}
    summary: dict[str, Any] = {"names": sorted(fields)}
    for name in LOGGED_FORM_FIELDS:
        if name in fields:
            summary[name] = fields[name][0]
    return summary


async def send_challenge(send: Any, status: int, challenge: str, body: dict[str, str]) -> None:
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                (b"www-authenticate", challenge.encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


class StepUpMiddleware:
    """A `tools/call` of a tool in `needs` whose token lacks one of its scopes gets `403
    insufficient_scope` naming every scope the call needs. Runs inside the SDK's
    `AuthenticationMiddleware` (it reads the user the SDK found); a request without a
    valid token passes on, to the SDK's `401`."""

    def __init__(self, app: Any, needs: dict[str, list[str]], resource_metadata_url: str, path: str = "/mcp"):
        self.app = app
        self.needs = needs
        self.resource_metadata_url = resource_metadata_url
        self.path = path

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != self.path:
            await self.app(scope, receive, send)
            return
        user = scope.get("user")
        if not isinstance(user, AuthenticatedUser):
            await self.app(scope, receive, send)
            return
        body, receive = await buffered_body(receive)
        method, params = json_rpc_method(body)
        name = params.get("name") if method == "tools/call" and isinstance(params, dict) else None
        needed = self.needs.get(name) if isinstance(name, str) else None
        missing = [s for s in needed or [] if s not in user.scopes]
        if needed and missing:
            description = Auth.STEP_UP.format(scope=" ".join(missing))
            challenge = (
                f'Bearer error="insufficient_scope", scope="{" ".join(needed)}", '
                f'resource_metadata="{self.resource_metadata_url}", error_description="{description}"'
            )
            await send_challenge(send, 403, challenge, {"error": "insufficient_scope", "error_description": description})
            return
        await self.app(scope, receive, send)


class ApiKeyMiddleware:
    """`--api-key`: `/mcp` answers only requests carrying the key (`Authorization: Bearer
    KEY` or `X-API-Key: KEY`); others get `401`. Everything else passes."""

    def __init__(self, app: Any, key: str, path: str = "/mcp"):
        self.app = app
        self.key = key.encode("utf-8")
        self.path = path

    def _carries_key(self, scope: Any) -> bool:
        headers = Headers(scope=scope)
        given = []
        authorization = headers.get("authorization", "")
        if authorization[:7].lower() == "bearer ":
            given.append(authorization[7:].strip())
        if "x-api-key" in headers:
            given.append(headers["x-api-key"])
        return any(hmac.compare_digest(g.encode("utf-8"), self.key) for g in given)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == self.path and not self._carries_key(scope):
            challenge = f'Bearer error="invalid_token", error_description="{Auth.API_KEY_MISSING}"'
            await send_challenge(send, 401, challenge, {"error": "invalid_token", "error_description": Auth.API_KEY_MISSING})
            return
        await self.app(scope, receive, send)


class PortDispatch:
    """One uvicorn, two sockets: requests that came in on `other_port` go to `other`, the
    rest (and the lifespan) to `app`."""

    def __init__(self, app: Any, other: Any, other_port: int):
        self.app = app
        self.other = other
        self.other_port = other_port

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        server = scope.get("server") if scope["type"] in ("http", "websocket") else None
        if server is not None and server[1] == self.other_port:
            await self.other(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def whoami() -> str:
    """Tells what this request is signed in with: the scopes of its access token, or an API key."""
    token = get_access_token()
    if token is None:
        return Auth.API_KEY
    return Auth.SIGNED_IN.format(scopes=" ".join(sorted(token.scopes)))


async def admin_report() -> str:
    """A report only a token with the `admin` scope may read (the others get a step-up)."""
    token = get_access_token()
    scopes = sorted(token.scopes) if token is not None else []
    return Auth.REPORT.format(scopes=" ".join(scopes))


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


@dataclass
class AuthSetup:
    """What `--auth` / `--api-key` add to the demo server (`setup` makes it; `app` and
    `cli` call it at the points below)."""

    resource: str
    """The MCP endpoint's URL (the resource tokens are issued for)."""
    log: AuthLog
    cors_origins: list[str] | None
    api_key: str | None = None
    settings: AuthSettings | None = None
    """The SDK's auth settings (`--auth`): the issuer, this resource, the scope it needs."""
    provider: DemoProvider | None = None
    sockets: list[socket.socket] = field(default_factory=list)
    """Sockets to serve besides the MCP one (the authorization server's)."""

    def server_options(self) -> dict[str, Any]:
        """`MCPServer` keyword arguments: the SDK's auth settings and token verifier."""
        if self.provider is None or self.settings is None:
            return {}
        return {"auth": self.settings, "token_verifier": ProviderTokenVerifier(self.provider)}

    def add_tools(self, server: Any) -> None:
        server.tool()(whoami)
        if self.provider is not None:
            server.tool()(admin_report)

    def wrap_resource(self, app: Any) -> Any:
        """Around the SDK's Starlette app, inside the CORS middleware (so challenges carry CORS)."""
        if self.api_key is not None:
            return ApiKeyMiddleware(app, self.api_key)
        metadata_url = str(build_resource_metadata_url(AnyHttpUrl(self.resource)))
        # Appended: the innermost middleware, after the SDK's AuthenticationMiddleware.
        app.user_middleware.append(Middleware(StepUpMiddleware, needs=STEP_UP, resource_metadata_url=metadata_url))
        return app

    def serve(self, app: Any) -> Any:
        """The ASGI app uvicorn runs: the MCP app, and the authorization server on its port."""
        resource = AuthLogMiddleware(app, self.log, "resource")
        if self.provider is None or self.settings is None or not self.sockets:
            return resource
        issuer_app = authorization_app(self.provider, self.settings.issuer_url)
        authorization = AuthLogMiddleware(issuer_app, self.log, "authorization")
        port = int(self.sockets[0].getsockname()[1])
        return PortDispatch(resource, with_cors(authorization, self.cors_origins), port)


def with_cors(app: Any, cors_origins: list[str] | None) -> Any:
    """The authorization server's CORS: the MCP side's policy (loopback pages by default)."""
    from .app import LOOPBACK_ORIGIN_RE

    if cors_origins is None:
        return app
    allow_all = "*" in cors_origins
    explicit = [o for o in cors_origins if o != "*"]
    return CORSMiddleware(
        app,
        allow_origins=["*"] if allow_all else explicit,
        allow_origin_regex=None if (allow_all or explicit) else LOOPBACK_ORIGIN_RE,
        allow_methods=["GET", "POST"],
        allow_headers=AS_CORS_HEADERS,
        expose_headers=["www-authenticate"],
    )


def setup(
    args: argparse.Namespace,
    mcp_socket: socket.socket,
    cors_origins: list[str] | None,
    bind: Callable[[int], socket.socket],
) -> AuthSetup | None:
    """None without `--auth` or `--api-key`. With `--auth`, binds the authorization
    server's socket (`bind(port)`) now, so both ports are known before the port file."""
    if not args.auth and args.api_key is None:
        return None
    if args.auth and args.api_key is not None:
        raise SystemExit("--auth and --api-key cannot be used together")
    host = url_host(args.host)
    resource = f"http://{host}:{mcp_socket.getsockname()[1]}/mcp"
    log = AuthLog(args.auth_log)
    if args.api_key is not None:
        if not args.api_key:
            raise SystemExit("--api-key needs a non-empty key")
        return AuthSetup(resource=resource, log=log, cors_origins=cors_origins, api_key=args.api_key)
    if args.token_ttl < 1:
        raise SystemExit("--token-ttl must be at least 1 second")
    as_socket = bind(args.auth_port)
    issuer = f"http://{host}:{as_socket.getsockname()[1]}"
    # Strings, not URL objects: AuthSettings keeps the issuer's empty path (no trailing
    # slash), and RFC 8414/9207 compare the issuer as an exact string.
    settings = AuthSettings(
        issuer_url=issuer, resource_server_url=resource, required_scopes=[Auth.SCOPE], validate_token_resource=True
    )
    provider = DemoProvider(issuer, resource, args.token_ttl, log, consent=args.consent)
    return AuthSetup(
        resource=resource, log=log, cors_origins=cors_origins, settings=settings, provider=provider, sockets=[as_socket]
    )
