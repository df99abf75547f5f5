"""The command line: `python tests/servers/demo_server [options]` (`--help` lists them).

`--port 0` lets the system choose a free port, and `--port-file FILE` writes the port
the server listens on to FILE once it is bound, so parallel test runs never race for a
port chosen in advance.
"""

from __future__ import annotations

import argparse
import os
import socket
from pathlib import Path

import uvicorn

from . import __doc__ as package_doc
from . import auth
from .app import build_app
from .texts import BookInRegion
from .tools import faults


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="demo_server", description=(package_doc or "").splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001, help="0: any free port (see --port-file)")
    parser.add_argument("--port-file", metavar="FILE", help="write the port listened on to FILE once bound")
    parser.add_argument(
        "--cors-origin",
        action="append",
        dest="cors_origins",
        metavar="ORIGIN",
        help="page origin allowed by CORS (repeatable; '*' for any). Default: any loopback origin.",
    )
    parser.add_argument("--no-cors", action="store_true", help="no CORS at all (stock SDK: preflight gets 405)")
    parser.add_argument("--static", metavar="DIR", help="also serve DIR at / on the same origin")
    parser.add_argument(
        "--state-key",
        metavar="SECRET",
        help="requestState sealing key (>= 32 chars) so a restarted server accepts old replays",
    )
    parser.add_argument("--trace", metavar="FILE", help="append every HTTP exchange to FILE as JSON lines")
    parser.add_argument(
        "--arrivals",
        metavar="FILE",
        help="append a JSON line to FILE the moment each HTTP request arrives (before it ends)",
    )
    parser.add_argument(
        "--resumable",
        action="store_true",
        help="keep events in an in-memory event store (SSE streams resumable with Last-Event-ID), retry: 200",
    )
    parser.add_argument(
        "--region-header",
        default=BookInRegion.HEADER,
        metavar="NAME",
        help="book_in_region mirrors region in Mcp-Param-NAME (a changed schema, for -32020 recovery)",
    )
    parser.add_argument(
        "--stateless",
        action="store_true",
        help="the SDK's stateless_http: 2025-11-25 sessions get no Mcp-Session-Id (and no GET stream)",
    )
    parser.add_argument(
        "--stall-discover",
        action="store_true",
        help="never answer server/discover (a client's Auto probe must time out and fall back)",
    )
    parser.add_argument(
        "--slow-report-min-gap-ms",
        type=float,
        default=faults.SLOW_REPORT_MIN_GAP_MS,
        metavar="MS",
        help="the least time a slow_report retry must leave after the answer before it (else -32600)",
    )
    auth.add_arguments(parser)
    return parser.parse_args(argv)


def listen(host: str, port: int, backlog: int) -> socket.socket:
    """A listening socket on host:port (port 0: one the system picks), bound before
    uvicorn starts so the port is known, and taken, from this moment."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(backlog)
    return sock


def write_port_file(path: str, port: int) -> None:
    """Writes the port all at once (a reader never sees a partial number)."""
    target = Path(path)
    partial = target.with_name(f"{target.name}.partial")
    partial.write_text(f"{port}\n", encoding="utf-8")
    os.replace(partial, target)


BACKLOG = 2048
"""uvicorn's default listen backlog."""


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cors = None if args.no_cors else (args.cors_origins or [])
    faults.slow_report_min_gap_ms = args.slow_report_min_gap_ms
    # Bound first: `--auth` needs the port (in the resource URL) before the app is built.
    sock = listen(args.host, args.port, BACKLOG)
    credentials = auth.setup(args, sock, cors, lambda port: listen(args.host, port, BACKLOG))
    app = build_app(
        args.host,
        cors,
        args.static,
        args.state_key,
        args.trace,
        resumable=args.resumable,
        region_header=args.region_header,
        stateless=args.stateless,
        stall_discover=args.stall_discover,
        arrivals=args.arrivals,
        auth=credentials,
    )
    sockets = [sock]
    if credentials is not None:
        app = credentials.serve(app)
        sockets += credentials.sockets
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", backlog=BACKLOG)
    if args.port_file:
        write_port_file(args.port_file, int(sock.getsockname()[1]))
    uvicorn.Server(config).run(sockets=sockets)
    return 0
