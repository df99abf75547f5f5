"""Serve a directory (the demo page, `www/`) on 127.0.0.1 with the right types and no caching.

Used by `scripts/demo` as a process and by the e2e harness in a thread. Python's
`http.server` does the work; this only fixes the `.wasm`/`.js` MIME types (browsers
refuse to stream-compile wasm served under another type) and sends `no-store`, so a
rebuilt package is always the one loaded.

Every response also refuses to be framed (`Content-Security-Policy: frame-ancestors
'none'`, and `X-Frame-Options: DENY` for browsers that predate it): a page of another
site could otherwise show the demo in an invisible frame and steer the person's clicks
onto its buttons (Call tool, Submit, Open) against their own local server. The pages
check too (`www/frame-guard.js`), for hosts that drop these headers.
`--allow-framing` (tests only: `make_server(..., refuse_framing=False)`) leaves them out.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class StaticHandler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
    }
    quiet = True
    refuse_framing = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        if not self.quiet:
            super().log_message(format, *args)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        if self.refuse_framing:
            for name, value in FRAME_HEADERS:
                self.send_header(name, value)
        super().end_headers()


FRAME_HEADERS = (
    ("Content-Security-Policy", "frame-ancestors 'none'"),
    ("X-Frame-Options", "DENY"),
)
"""Sent on every response: no page, of any origin (this one included), may frame these."""


class FramableHandler(StaticHandler):
    """The same files without the framing headers: a host that drops them (tests only)."""

    refuse_framing = False


def make_server(
    directory: str, port: int, host: str = "127.0.0.1", refuse_framing: bool = True
) -> ThreadingHTTPServer:
    handler = StaticHandler if refuse_framing else FramableHandler
    httpd = ThreadingHTTPServer((host, port), partial(handler, directory=directory))
    httpd.daemon_threads = True
    return httpd


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log", action="store_true", help="log each request on stderr")
    parser.add_argument("--allow-framing", action="store_true", help="leave out the no-framing headers (tests only)")
    args = parser.parse_args(argv)
    StaticHandler.quiet = not args.log
    httpd = make_server(args.directory, args.port, args.host, refuse_framing=not args.allow_framing)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
