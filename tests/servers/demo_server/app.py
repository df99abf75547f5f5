"""The MCP server and the ASGI app around it: `/mcp` (both eras), CORS, the SDK's
DNS-rebinding allow-list, optional static files, and the middlewares the options ask for.

CORS: the SDK does no CORS, so the ASGI app is wrapped in `McpCorsMiddleware`
(answering preflight, allowing the MCP headers and any `Mcp-Param-*`, exposing
`mcp-session-id`), and the page origins are added to the SDK's DNS-rebinding
`allowed_origins`. `cors_origins=None` (`--no-cors`) leaves the stock SDK behaviour
(preflight gets 405).
"""

from __future__ import annotations

import os
from typing import Any

from mcp.server.mcpserver import MCPServer, RequestStateSecurity
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from .events import RETRY_INTERVAL_MS, BoundedEventStore, ResumableMiddleware
from .middleware import (
    CORS_ALLOW_HEADERS,
    FlakyReplayMiddleware,
    McpCorsMiddleware,
    RefuseFraming,
    StallDiscoverMiddleware,
    TraceMiddleware,
)
from .prompts import note, trip_brief
from .texts import SERVER_NAME, BookInRegion
from .tools import TOOLS
from .tools.booking import delete_folder, make_book_in_region
from .tools.forms import annotate_route_by_list

# Any loopback page origin, whatever its port: the default when no --cors-origin is given.
LOOPBACK_ORIGIN_RE = r"http://(127\.0\.0\.1|localhost|\[::1\])(:\d+)?"
LOOPBACK_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]


def create_server(
    state_key: str | None = None, region_header: str = BookInRegion.HEADER, auth: Any = None
) -> MCPServer:
    """The MCP server with every tool. A fixed `state_key` survives restarts (else ephemeral).
    `auth`: a `demo_server.auth.AuthSetup` (`--auth`, `--api-key`), or None."""
    security = RequestStateSecurity(keys=[state_key], audience=SERVER_NAME) if state_key else None
    options = auth.server_options() if auth is not None else {}
    server = MCPServer(SERVER_NAME, request_state_security=security, **options)
    tools = list(TOOLS)
    tools.insert(tools.index(delete_folder) + 1, make_book_in_region(region_header))
    for tool in tools:
        server.tool()(tool)
    annotate_route_by_list(server)
    server.prompt()(trip_brief)
    server.resource("notes://{name}", name="note", mime_type="text/plain")(note)
    if auth is not None:
        auth.add_tools(server)
    return server



def build_app(
    host: str,
    cors_origins: list[str] | None,
    static_dir: str | None,
    state_key: str | None = None,
    trace: str | None = None,
    *,
    resumable: bool = False,
    region_header: str = BookInRegion.HEADER,
    stateless: bool = False,
    stall_discover: bool = False,
    arrivals: str | None = None,
    auth: Any = None,
) -> Any:
    """The Starlette app: `/mcp` (both eras), CORS unless `cors_origins` is None, static files.

    `resumable`: an event store and `retry: 200` (see `demo_server.events`).
    `auth`: a `demo_server.auth.AuthSetup` (`--auth`, `--api-key`), or None.
    """
    app = _build_app(host, cors_origins, static_dir, state_key, resumable, region_header, stateless, auth)
    if stall_discover:
        app = StallDiscoverMiddleware(app)
    if trace:
        return TraceMiddleware(app, trace, arrivals)
    if arrivals:
        return TraceMiddleware(app, os.devnull, arrivals)
    return app


def _build_app(
    host: str,
    cors_origins: list[str] | None,
    static_dir: str | None,
    state_key: str | None,
    resumable: bool,
    region_header: str,
    stateless: bool,
    auth: Any = None,
) -> Any:
    allow_all = cors_origins is not None and "*" in cors_origins
    explicit = [o for o in (cors_origins or []) if o != "*"]
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=not allow_all,
        allowed_hosts=[*LOOPBACK_HOSTS, f"{host}:*"],
        allowed_origins=[*LOOPBACK_ORIGINS, *explicit],
    )
    store = BoundedEventStore() if resumable else None
    app = create_server(state_key, region_header, auth).streamable_http_app(
        transport_security=security,
        host=host,
        event_store=store,
        retry_interval=RETRY_INTERVAL_MS if resumable else None,
        stateless_http=stateless,
    )
    if static_dir:
        static = RefuseFraming(StaticFiles(directory=static_dir, html=True))
        app.router.routes.append(Mount("/", app=static, name="static"))
    if auth is not None:
        app = auth.wrap_resource(app)
    if store is not None:
        app = ResumableMiddleware(app, store)
    app = FlakyReplayMiddleware(app)
    if cors_origins is None:
        return app
    return McpCorsMiddleware(
        app,
        allow_origins=["*"] if allow_all else explicit,
        allow_origin_regex=None if (allow_all or explicit) else LOOPBACK_ORIGIN_RE,
        allow_methods=["GET", "POST", "DELETE"],
        allow_headers=CORS_ALLOW_HEADERS,
        expose_headers=["mcp-session-id", "www-authenticate"],
    )

