"""The authorization server `--auth` runs beside the MCP endpoint, on its own port (so its
own origin), built on the SDK's `mcp.server.auth`: its routes (`create_auth_routes`:
metadata, `/authorize`, `/token`, `/register`, `/revoke`), with `DemoProvider` as the
`OAuthAuthorizationServerProvider` that keeps everything in memory.

What it does, as the MCP authorization spec asks of an authorization server:

- Dynamic client registration (RFC 7591). Every client it registers may ask for every
  scope it knows (`mcp`, `admin`), so a step-up to `admin` needs no new registration.
- `/authorize` approves at once: no login page, a `302` to the `redirect_uri` with `code`,
  `state` and `iss` (RFC 9207, advertised as `authorization_response_iss_parameter_supported`).
  With `--consent` it shows a page first (`/consent`, buttons Allow and Deny): a test
  can then close the popup before it is answered, or refuse (`error=access_denied`).
  PKCE S256 only (the SDK's handler). The `resource` (RFC 8707) must name this server's MCP
  endpoint, else the redirect carries `error=invalid_target`.
- `/token`: the code (once, within `CODE_TTL`, with its PKCE verifier) or a refresh token
  gives an access token that lives `--token-ttl` seconds and a new refresh token; the old
  refresh token and the access token it gave are dropped (rotation).
- Token endpoint client authentication: `none` (a public client, as a browser page is),
  `client_secret_post` or `client_secret_basic`, as registered.

The MCP side checks tokens through `ProviderTokenVerifier` on this same provider (one
process, one memory): only a token this server issued, not expired, for this resource.
"""

from __future__ import annotations

import html
import secrets
import time
from typing import Any

from mcp.server.auth.handlers.metadata import MetadataHandler
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    OAuthAuthorizationServerProvider,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.routes import build_metadata, create_auth_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from .texts import Auth

SCOPES = [Auth.SCOPE, Auth.ADMIN_SCOPE]
"""Every scope this authorization server knows (its metadata's `scopes_supported`)."""
DEFAULT_SCOPES = [Auth.SCOPE]
"""What an authorization request without `scope` is granted."""
SUBJECT = "demo-user"
"""The one person who signs in (`sub`): every grant is theirs."""
CODE_TTL = 300.0
"""Seconds an authorization code can be exchanged."""
METADATA_PATH = "/.well-known/oauth-authorization-server"
CONSENT_PATH = "/consent"
CONSENT_UNKNOWN = "This sign-in request is unknown or already answered."
NO_FRAMING = {"Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY"}
CONSENT_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in: demo authorization server</title></head>
<body><main>
<h1>Allow {client} to use {resource}?</h1>
<p>Scopes: {scopes}</p>
<form method="post" action="/consent">
<input type="hidden" name="request" value="{request}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</main></body></html>
"""


def same_resource(a: str | None, b: str) -> bool:
    """Whether a requested `resource` names the MCP endpoint `b` (a trailing slash aside)."""
    return a is not None and a.removesuffix("/") == b.removesuffix("/")


class DemoProvider(OAuthAuthorizationServerProvider[AuthorizationCode, RefreshToken, AccessToken]):
    """The SDK's `OAuthAuthorizationServerProvider`, in memory: clients, codes, access and refresh
    tokens. `log` (an `AuthLog`) hears of each registration, authorization and issue."""

    def __init__(self, issuer: str, resource: str, token_ttl: int, log: Any, consent: bool = False):
        self.issuer = issuer
        self.consent = consent
        self.pending: dict[str, tuple[OAuthClientInformationFull, AuthorizationParams]] = {}
        """`--consent`: authorization requests waiting for Allow or Deny, by request id."""
        self.resource = resource
        self.token_ttl = token_ttl
        self.log = log
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, tuple[AccessToken, float]] = {}
        """token -> (the token, when it expires on `time.time()`'s clock, to the fraction)."""
        self.refresh: dict[str, tuple[RefreshToken, str]] = {}
        """refresh token -> (it, the access token issued with it)."""

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        # Any client may ask for any scope this server knows (a step-up needs no new registration).
        client_info.scope = " ".join(SCOPES)
        self.clients[client_info.client_id] = client_info
        self.log.write(
            side="authorization",
            event="register",
            client_id=client_info.client_id,
            redirect_uris=[str(u) for u in client_info.redirect_uris or []],
            token_endpoint_auth_method=client_info.token_endpoint_auth_method,
        )

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        scopes = params.scopes or list(DEFAULT_SCOPES)
        self.log.write(
            side="authorization",
            event="authorize",
            client_id=client.client_id,
            scopes=scopes,
            resource=params.resource,
            redirect_uri=str(params.redirect_uri),
        )
        if not same_resource(params.resource, self.resource):
            raise AuthorizeError(
                error="invalid_target",
                error_description=f"this authorization server issues tokens for {self.resource} only",
            )
        if self.consent:
            request_id = secrets.token_urlsafe(16)
            self.pending[request_id] = (client, params)
            return f"{self.issuer}{CONSENT_PATH}?request={request_id}"
        return self._approve(client, params)

    def _approve(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        """A code for this request, and the redirect that hands it back."""
        scopes = params.scopes or list(DEFAULT_SCOPES)
        code = secrets.token_urlsafe(32)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=scopes,
            expires_at=time.time() + CODE_TTL,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
            subject=SUBJECT,
        )
        # Approved: back to the client with the code, its state and this issuer.
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state, iss=self.issuer)

    async def consent_page(self, request: Request) -> Response:
        """`GET /consent?request=ID`: what is asked, and Allow / Deny (a form posting back)."""
        request_id = request.query_params.get("request", "")
        pending = self.pending.get(request_id)
        if pending is None:
            return PlainTextResponse(CONSENT_UNKNOWN, status_code=400)
        client, params = pending
        scopes = " ".join(params.scopes or DEFAULT_SCOPES)
        page = CONSENT_PAGE.format(
            client=html.escape(client.client_name or client.client_id),
            resource=html.escape(self.resource),
            scopes=html.escape(scopes),
            request=html.escape(request_id),
        )
        return HTMLResponse(page, headers=NO_FRAMING)

    async def consent_answer(self, request: Request) -> Response:
        """`POST /consent`: Allow gives the code; Deny gives `error=access_denied`."""
        form = await request.form()
        request_id = form.get("request")
        pending = self.pending.pop(request_id, None) if isinstance(request_id, str) else None
        if pending is None:
            return PlainTextResponse(CONSENT_UNKNOWN, status_code=400)
        client, params = pending
        allowed = form.get("decision") == "allow"
        self.log.write(side="authorization", event="consent", client_id=client.client_id, allowed=allowed)
        if allowed:
            target = self._approve(client, params)
        else:
            target = construct_redirect_uri(
                str(params.redirect_uri),
                error="access_denied",
                error_description="the person refused",
                state=params.state,
                iss=self.issuer,
            )
        return RedirectResponse(target, status_code=302, headers={"Cache-Control": "no-store"})

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        code = self.codes.get(authorization_code)
        return code if code is not None and code.client_id == client.client_id else None

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)  # once only
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource, "authorization_code")

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> RefreshToken | None:
        kept = self.refresh.get(refresh_token)
        return kept[0] if kept is not None and kept[0].client_id == client.client_id else None

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        _, access = self.refresh.pop(refresh_token.token, (None, ""))
        self.access.pop(access, None)
        return self._issue(client.client_id, scopes, refresh_token.resource, "refresh_token")

    async def load_access_token(self, token: str) -> AccessToken | None:
        kept = self.access.get(token)
        if kept is None:
            return None
        access, expires = kept
        if time.time() >= expires:
            return None
        return access

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        if isinstance(token, RefreshToken):
            _, access = self.refresh.pop(token.token, (None, ""))
            self.access.pop(access, None)
            return
        self.access.pop(token.token, None)
        for key, (_, access) in list(self.refresh.items()):
            if access == token.token:
                del self.refresh[key]

    def _issue(self, client_id: str, scopes: list[str], resource: str | None, grant: str) -> OAuthToken:
        access = secrets.token_urlsafe(32)
        refresh = secrets.token_urlsafe(32)
        expires = time.time() + self.token_ttl
        self.access[access] = (
            AccessToken(
                token=access,
                client_id=client_id,
                scopes=scopes,
                expires_at=int(expires),
                resource=resource,
                subject=SUBJECT,
                claims={"iss": self.issuer},
            ),
            expires,
        )
        self.refresh[refresh] = (
            RefreshToken(token=refresh, client_id=client_id, scopes=scopes, resource=resource, subject=SUBJECT),
            access,
        )
        self.log.write(
            side="authorization",
            event="issued",
            grant=grant,
            client_id=client_id,
            scopes=scopes,
            resource=resource,
            access_token=self.log.fingerprint(access),
            refresh_token=self.log.fingerprint(refresh),
            expires_in=self.token_ttl,
        )
        return OAuthToken(
            access_token=access, expires_in=self.token_ttl, scope=" ".join(scopes), refresh_token=refresh
        )


def authorization_app(provider: DemoProvider, issuer: AnyHttpUrl) -> Starlette:
    """The authorization server's Starlette app: the SDK's routes for `provider`, with the
    metadata saying what this server does beyond the SDK's defaults (`iss` in the
    authorization response, public clients with `none`). No CORS here: `demo_server.auth`
    wraps it for loopback pages. `issuer`: as `AuthSettings` keeps it (no trailing slash)."""
    registration = ClientRegistrationOptions(enabled=True, valid_scopes=SCOPES, default_scopes=DEFAULT_SCOPES)
    revocation = RevocationOptions(enabled=True)
    routes = create_auth_routes(
        provider=provider,
        issuer_url=issuer,
        client_registration_options=registration,
        revocation_options=revocation,
    )
    metadata = build_metadata(issuer, None, registration, revocation).model_copy(
        update={
            "authorization_response_iss_parameter_supported": True,
            "token_endpoint_auth_methods_supported": ["none", "client_secret_post", "client_secret_basic"],
        }
    )
    kept = [r for r in routes if getattr(r, "path", None) != METADATA_PATH]
    return Starlette(
        routes=[
            Route(METADATA_PATH, MetadataHandler(metadata).handle, methods=["GET"]),
            Route(CONSENT_PATH, provider.consent_page, methods=["GET"]),
            Route(CONSENT_PATH, provider.consent_answer, methods=["POST"]),
            *kept,
        ]
    )
