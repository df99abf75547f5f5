"""A server that answers with a redirect (issue 36, item 4): no MCP request, session id or
credential reaches another address through it, and the person reads what happened.

A "remote" server answers every MCP request with `307 Location: <a local service>` (the
attack: carry the JSON-RPC body and `Mcp-*` headers to a service on the person's own
machine, whose answers the card would then show under the remote server's name). The
local service counts every request that reaches it, of any method, and would answer them
all. Both answer CORS for any origin, so nothing but the client's own rule stops the
browser from following.

- On a page (`www/host.html`, `McpClient`), in each protocol choice: the connect fails in
  words that say the server redirected, and the local service sees nothing.
- In the example extension, whose loopback `host_permissions` lift CORS (so the browser
  alone would follow anywhere on loopback): the same.
- A redirect on the same origin (Starlette's `/mcp` → `/mcp/`) is refused too, and the words
  suggest the trailing slash.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlencode

import pytest
from harness import wait_text
from test_extension import browser_with, build_extension, open_panel  # noqa: F401 - its fixtures, reused

PROTOCOLS = ["auto", "2026-07-28", "2025-11-25"]


class Peer:
    """A loopback HTTP server in a thread: `redirect_to` set, it answers every request but a
    preflight with `307 Location: redirect_to`; else it answers 200 with an empty JSON object.
    It records every request (method, path, headers) it receives."""

    def __init__(self, redirect_to: str | None = None):
        self.redirect_to = redirect_to
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        peer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _answer(self) -> None:
                peer.requests.append((self.command, self.path, {k.lower(): v for k, v in self.headers.items()}))
                length = int(self.headers.get("content-length") or 0)
                if length:
                    self.rfile.read(length)
                origin = self.headers.get("origin") or "*"
                if self.command == "OPTIONS":
                    self.send_response(204)
                    self.send_header("access-control-allow-origin", origin)
                    self.send_header("access-control-allow-methods", "GET, POST, DELETE, OPTIONS")
                    self.send_header(
                        "access-control-allow-headers", self.headers.get("access-control-request-headers") or "*"
                    )
                    self.send_header("content-length", "0")
                    self.end_headers()
                    return
                target = peer.redirect_to
                if target is not None and target.startswith("/"):
                    target = f"http://127.0.0.1:{peer.port}{target}"
                if target is not None and not self.path.startswith("/mcp/"):
                    self.send_response(307)
                    self.send_header("location", target)
                    body = b""
                else:
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("mcp-session-id", "local-service-session")
                    body = b"{}"
                self.send_header("access-control-allow-origin", origin)
                self.send_header("access-control-expose-headers", "mcp-session-id, location")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_DELETE = do_OPTIONS = _answer

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self._httpd.server_address[1])
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="redirect-peer", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@pytest.fixture
def peers() -> Iterator[tuple[Peer, Peer]]:
    """(remote, local): the remote redirects every request to the local service."""
    local = Peer()
    remote = Peer(redirect_to=f"{local.url}/")
    try:
        yield remote, local
    finally:
        remote.stop()
        local.stop()


def refused_in_words(driver: Any, selector: str) -> str:
    return wait_text(driver, selector, "redirect").text


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_page_follows_no_redirect_to_another_address(
    driver: Any, www: Any, peers: tuple[Peer, Peer], protocol: str
) -> None:
    remote, local = peers
    driver.get(f"{www.origin}/host.html?{urlencode([('server', remote.url), ('protocol', protocol)])}")
    status = wait_text(driver, "[data-testid=connection-status]", "not connected").text
    assert "redirect" in status, status
    assert "does not follow redirects" in status, status
    assert remote.requests, "the remote server was never asked"
    assert local.requests == [], f"a request reached the redirect's target: {local.requests}"


def test_a_same_origin_redirect_is_refused_with_the_trailing_slash_named(driver: Any, www: Any) -> None:
    server = Peer(redirect_to="/mcp/")
    try:
        driver.get(f"{www.origin}/host.html?{urlencode([('server', server.url), ('protocol', '2025-11-25')])}")
        status = wait_text(driver, "[data-testid=connection-status]", "not connected").text
        assert "redirect" in status and "trailing slash" in status, status
        assert [path for _, path, _ in server.requests if path.startswith("/mcp/")] == []
    finally:
        server.stop()


@pytest.mark.parametrize("protocol", ["2026-07-28", "2025-11-25"])
def test_the_extension_follows_no_redirect_to_a_local_service(
    build_extension: Any, browser_with: Any, peers: tuple[Peer, Peer], protocol: str
) -> None:
    from harness import button, wait_css
    from selenium.webdriver.support.ui import Select

    remote, local = peers
    driver = browser_with(build_extension())
    open_panel(driver)
    field = wait_css(driver, "#server")
    field.clear()
    field.send_keys(remote.url)
    Select(wait_css(driver, "#protocol")).select_by_value(protocol)
    button(driver, "Connect").click()
    status = wait_text(driver, "[data-testid=connection-status]", "not connected").text
    assert "redirect" in status, status
    assert remote.requests, "the remote server was never asked"
    assert local.requests == [], f"a request reached the local service: {local.requests}"
