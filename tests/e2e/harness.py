"""Helpers for the end-to-end tests: processes, ports, and a tiny plain-HTTP MCP client.

Kept free of pytest so that scripts (transcript capture, the demo) can use it too.
The MCP clients here speak the wire exactly as `docs/protocol.md` describes, with the
standard library only, so a test failure points at the server or the browser client,
never at a third-party HTTP stack.
"""

from __future__ import annotations

import contextlib
import http.client
import itertools
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

REPO = Path(__file__).resolve().parents[2]
SERVERS = REPO / "tests" / "servers"
DEMO_SERVER = SERVERS / "demo_server"
"""The demo server package, run as a directory: `python tests/servers/demo_server [options]`."""
HOSTILE_SERVER = SERVERS / "hostile_server.py"
WWW = REPO / "www"

sys.path.insert(0, str(SERVERS))
from static_server import make_server  # noqa: E402 - needs the path above

# Selenium Manager must never try to fetch a browser or driver (this machine is offline).
os.environ.setdefault("SE_OFFLINE", "true")
os.environ.setdefault("SE_AVOID_STATS", "true")
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
# As root, Chromium needs --no-sandbox; the network flags keep it from calling out
# (this machine has no network, and those attempts are slow and noisy).
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--window-size=1280,1024",
]

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
CLIENT_INFO = {"name": "mcp-elicit-tests", "version": "0"}
CAPABILITIES = {"elicitation": {"form": {}, "url": {}}}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now. Another process may take
    it before it is used: servers the tests start bind port 0 themselves (`--port-file`)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[bytes] | None = None, timeout: float = 30.0) -> None:
    """Block until 127.0.0.1:port accepts connections; fail with the process's output if it died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with code {proc.returncode} before listening on port {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listened on 127.0.0.1:{port} within {timeout:.0f}s")


@contextlib.contextmanager
def serving(cmd: list[str], cwd: Path, port: int, log_path: Path, env: dict[str, str] | None = None) -> Iterator[None]:
    """Runs a server that listens on `port` (given in `cmd` or `env`), its output in
    `log_path`, until the block ends; the process is ended then, also when the block fails."""
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for_port(port, proc)
            yield
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def open_host_auto(driver: Any, www: Any, server_url: str) -> None:
    """host.html connected with `protocol=auto` to a server that speaks 2025-11-25 only."""
    driver.get(f"{www.origin}/host.html?{urlencode({'server': server_url, 'protocol': 'auto'})}")
    wait_text(driver, "[data-testid=connection-status]", f"connected · {LEGACY}")


def read_json_lines(path: Path | None) -> list[dict[str, Any]]:
    """The complete lines of a JSON-lines file a server is appending to. A long line reaches
    the file in several writes, so the last line may still be partial: only lines that end
    in a newline are read, the rest is left for a later read."""
    if path is None or not path.exists():
        return []
    *complete, _partial = path.read_text(encoding="utf-8").split("\n")
    return [json.loads(line) for line in complete if line.strip()]


PORT_FILE_WAIT = 30.0
"""How long a started server may take to bind and write its `--port-file` (a loaded 2-core
machine starts the SDK in a few seconds); beyond it the start fails with that message."""

_instances = itertools.count(1)
"""Numbers each server this process starts, for file names no other server shares."""


def unique_stem(log_dir: Path, kind: str) -> Path:
    """`log_dir/<kind>-<pid>-<n>`: unique among the servers of this run, whatever worker
    (process) starts them and whichever port the system hands out again."""
    return log_dir / f"{kind}-{os.getpid()}-{next(_instances)}"


def start_listening(cmd: list[str], out: Any, port: int | None) -> tuple[subprocess.Popen[bytes], int]:
    """Starts a server given `--port` and `--port-file` (port 0 when `port` is None: the
    system picks a free one, so parallel workers never race for it); returns the process
    once it listens, and its port."""
    with tempfile.TemporaryDirectory(prefix="mcp-elicit-port-") as tmp:
        port_file = Path(tmp) / "port"
        cmd = [*cmd, "--port", str(port or 0), "--port-file", str(port_file)]
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
        deadline = time.monotonic() + PORT_FILE_WAIT
        while not port_file.exists():
            if proc.poll() is not None:
                raise RuntimeError(f"{cmd[1]} exited with code {proc.returncode} before listening")
            if time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"{cmd[1]} wrote no port file within {PORT_FILE_WAIT:.0f}s")
            time.sleep(0.05)
        bound = int(port_file.read_text(encoding="utf-8"))
    wait_for_port(bound, proc)
    return proc, bound


class DemoServer:
    """`tests/servers/demo_server` in a subprocess, restartable on the same port (a free
    one the server picks at its first start, unless `port` is given).

    The `requestState` sealing key is fixed per instance, so a modern-era replay sealed
    before `restart()` still verifies after it (the fault tests need exactly that).
    """

    def __init__(self, *, port: int | None = None, options: list[str] | None = None, log_dir: Path | None = None):
        self.port = port or 0
        self.options = list(options or [])
        self.state_key = secrets.token_hex(32)
        self.log_dir = log_dir
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: Any = None
        self.starts = 0
        self.trace_path: Path | None = None
        self.arrivals_path: Path | None = None
        self.stem = unique_stem(log_dir, "demo-server") if log_dir is not None else None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The MCP endpoint."""
        return f"{self.origin}/mcp"

    def start(self) -> DemoServer:
        if self.proc is not None and self.proc.poll() is None:
            return self
        cmd = [sys.executable, str(DEMO_SERVER), "--host", "127.0.0.1", "--state-key", self.state_key, *self.options]
        self.starts += 1
        if self.log_dir is not None and self.stem is not None:
            # The server's output and a trace of every HTTP exchange, for reading after a failure.
            self.log_dir.mkdir(parents=True, exist_ok=True)
            stem = f"{self.stem}-{self.starts}"
            if "--trace" not in self.options:
                self.trace_path = Path(f"{stem}.trace.jsonl")
                self.trace_path.unlink(missing_ok=True)
                cmd += ["--trace", str(self.trace_path)]
            if "--arrivals" not in self.options:
                self.arrivals_path = Path(f"{stem}.arrivals.jsonl")
                self.arrivals_path.unlink(missing_ok=True)
                cmd += ["--arrivals", str(self.arrivals_path)]
            self._log = open(f"{stem}.log", "wb")  # noqa: SIM115
            out: Any = self._log
        else:
            out = subprocess.DEVNULL
        self.proc, self.port = start_listening(cmd, out, self.port or None)
        return self

    def trace(self) -> list[dict[str, Any]]:
        """The HTTP exchanges of the current run that have ended (`--trace` JSON lines)."""
        return read_json_lines(self.trace_path)

    def arrivals(self) -> list[dict[str, Any]]:
        """Every HTTP request of the current run the moment it arrived, ended or still open
        (`--arrivals` JSON lines: method, path, request headers, `started`)."""
        return read_json_lines(self.arrivals_path)

    def methods(self) -> list[str]:
        """The JSON-RPC `method` of each traced request that had one, in order."""
        out = []
        for record in self.trace():
            try:
                body = json.loads(record.get("request_body") or "null")
            except ValueError:
                continue
            if isinstance(body, dict) and isinstance(body.get("method"), str):
                out.append(body["method"])
        return out

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and wait until the port is free."""
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def restart(self) -> DemoServer:
        self.stop()
        return self.start()

    def __enter__(self) -> DemoServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class HostileServer:
    """`tests/servers/hostile_server.py` in a subprocess: one tool per misbehaviour.

    `trace()` is what it received (each message as it arrived), `stats()` its counters
    (`/stats`: ping answers, answers by id, unexpected answers, resume times, hung POSTs).
    """

    def __init__(
        self, *, log_dir: Path, port: int | None = None, name: str | None = None, options: list[str] | None = None
    ):
        self.port = port or 0
        self.log_dir = log_dir
        self.name = name
        self.options = list(options or [])
        self.proc: subprocess.Popen[bytes] | None = None
        self.stem = unique_stem(log_dir, "hostile-server")
        self.trace_path = Path(f"{self.stem}.trace.jsonl")
        self._log: Any = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.origin}/mcp"

    def start(self) -> HostileServer:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.trace_path.unlink(missing_ok=True)
        cmd = [sys.executable, str(HOSTILE_SERVER), "--trace", str(self.trace_path)]
        if self.name is not None:
            cmd += ["--name", self.name]
        cmd += self.options
        self._log = open(f"{self.stem}.log", "wb")  # noqa: SIM115
        self.proc, self.port = start_listening(cmd, self._log, self.port or None)
        return self

    def stats(self) -> dict[str, Any]:
        return http_request(f"{self.origin}/stats", method="GET").json()

    def trace(self) -> list[dict[str, Any]]:
        return read_json_lines(self.trace_path)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> HostileServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class StaticServer:
    """A directory served over HTTP on 127.0.0.1 from a thread (`tests/servers/static_server.py`)."""

    def __init__(self, directory: Path, port: int | None = None, refuse_framing: bool = True):
        self.directory = directory
        self.port = port or 0
        """0 until `start`, which binds port 0 (the system picks a free one) unless a port was given."""
        self.refuse_framing = refuse_framing
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> StaticServer:
        self._httpd = make_server(str(self.directory), self.port, refuse_framing=self.refuse_framing)
        self.port = int(self._httpd.server_address[1])
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="static-www", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> StaticServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --- a minimal MCP client over plain HTTP ---------------------------------------------


class HttpReply:
    """One HTTP response: status, headers (lower-case names), and the body or SSE events."""

    def __init__(self, resp: http.client.HTTPResponse, conn: http.client.HTTPConnection):
        self.status = resp.status
        self.headers = {k.lower(): v for k, v in resp.getheaders()}
        self._resp = resp
        self._conn = conn

    @property
    def is_sse(self) -> bool:
        return self.headers.get("content-type", "").startswith("text/event-stream")

    def json(self) -> Any:
        try:
            return json.loads(self._resp.read())
        finally:
            self._conn.close()

    def text(self) -> str:
        try:
            return self._resp.read().decode("utf-8", "replace")
        finally:
            self._conn.close()

    def events(self) -> Iterator[Any]:
        """The JSON payloads of the SSE stream's `data:` events, as they arrive."""
        data: list[str] = []
        try:
            while True:
                raw = self._resp.readline()
                if not raw:
                    break
                line = raw.decode("utf-8").rstrip("\r\n")
                if line == "":
                    if data:
                        yield json.loads("\n".join(data))
                        data = []
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip(" "))
        finally:
            self._conn.close()

    def messages(self) -> Iterator[Any]:
        """JSON-RPC messages of the reply, whether a JSON body or an SSE stream."""
        if self.is_sse:
            yield from self.events()
        else:
            yield self.json()

    def close(self) -> None:
        self._conn.close()


def http_request(
    url: str, method: str = "POST", body: Any = None, headers: dict[str, str] | None = None, timeout: float = 30.0
) -> HttpReply:
    """Send one request; the caller reads (and thereby closes) the reply."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=timeout)
    payload = None if body is None else json.dumps(body).encode()
    all_headers = dict(headers or {})
    if payload is not None:
        all_headers.setdefault("Content-Type", "application/json")
    conn.request(method, parts.path or "/", body=payload, headers=all_headers)
    return HttpReply(conn.getresponse(), conn)


class ModernClient:
    """2026-07-28: every request is one self-contained POST (no handshake, no session)."""

    def __init__(self, url: str, capabilities: dict[str, Any] | None = None):
        self.url = url
        self.capabilities = CAPABILITIES if capabilities is None else capabilities
        self._next_id = 0

    def envelope(self) -> dict[str, Any]:
        return {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
            "io.modelcontextprotocol/clientCapabilities": self.capabilities,
        }

    def post(
        self, method: str, params: dict[str, Any], name: str | None = None, headers: dict[str, str] | None = None
    ) -> HttpReply:
        self._next_id += 1
        body = {"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": {**params, "_meta": self.envelope()}}
        all_headers = {
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": MODERN,
            "Mcp-Method": method,
            **(headers or {}),
        }
        if name is not None:
            all_headers["Mcp-Name"] = name
        return http_request(self.url, body=body, headers=all_headers)

    def request(
        self, method: str, params: dict[str, Any], name: str | None = None, headers: dict[str, str] | None = None
    ) -> dict[str, Any]:
        """The JSON-RPC response (result or error) to one request."""
        reply = self.post(method, params, name, headers)
        for message in reply.messages():
            if isinstance(message, dict) and "id" in message and ("result" in message or "error" in message):
                reply.close()
                return message
        raise AssertionError(f"no JSON-RPC response in the HTTP {reply.status} reply")

    def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        input_responses: dict[str, Any] | None = None,
        request_state: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"name": name, "arguments": arguments or {}}
        if input_responses is not None:
            params["inputResponses"] = input_responses
        if request_state is not None:
            params["requestState"] = request_state
        return self.request("tools/call", params, name=name, headers=headers)


class LegacySession:
    """2025-11-25: initialize, a session id, server-to-client requests on SSE streams."""

    def __init__(self, url: str, capabilities: dict[str, Any] | None = None):
        self.url = url
        self.capabilities = CAPABILITIES if capabilities is None else capabilities
        self.session_id: str | None = None
        self._next_id = 0

    def headers(self) -> dict[str, str]:
        h = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": LEGACY}
        if self.session_id is not None:
            h["Mcp-Session-Id"] = self.session_id
        return h

    def initialize(self) -> dict[str, Any]:
        body = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"protocolVersion": LEGACY, "capabilities": self.capabilities, "clientInfo": CLIENT_INFO},
        }
        headers = {"Accept": "application/json, text/event-stream"}
        reply = http_request(self.url, body=body, headers=headers)
        self.session_id = reply.headers.get("mcp-session-id")
        result = next(reply.messages())
        reply.close()
        assert self.session_id, "initialize answered without an mcp-session-id header"
        note = http_request(
            self.url, body={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=self.headers()
        )
        assert note.status == 202, f"notifications/initialized got HTTP {note.status}"
        note.close()
        return result

    def start_call(self, name: str, arguments: dict[str, Any] | None = None) -> Iterator[Any]:
        """POST tools/call and return the SSE stream's messages (server requests, then the result)."""
        self._next_id += 1
        body = {
            "jsonrpc": "2.0",
            "id": self._next_id,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments or {}},
        }
        return http_request(self.url, body=body, headers=self.headers()).messages()

    def respond(self, request_id: Any, result: dict[str, Any]) -> int:
        """Answer a server-to-client request; returns the HTTP status (202 expected)."""
        reply = http_request(self.url, body={"jsonrpc": "2.0", "id": request_id, "result": result}, headers=self.headers())
        reply.close()
        return reply.status

    def open_get_stream(self) -> Iterator[Any]:
        """The session's standalone GET stream (notifications not tied to a request)."""
        headers = {k: v for k, v in self.headers().items() if k != "Accept"}
        headers["Accept"] = "text/event-stream"
        return http_request(self.url, method="GET", headers=headers, timeout=30.0).events()

    def close(self) -> None:
        if self.session_id is not None:
            http_request(self.url, method="DELETE", headers=self.headers()).close()
            self.session_id = None


def tool_text(result: dict[str, Any]) -> str:
    """The concatenated text content of a CallToolResult."""
    return "".join(c.get("text", "") for c in result.get("content", []) if c.get("type") == "text")


def chrome_options(profile: str) -> Any:
    """Selenium options for headless Debian Chromium with its own profile directory `profile`."""
    from selenium.webdriver.chrome.options import Options

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    # Console messages are readable through driver.get_log("browser") for diagnostics.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


# --- browser helpers (Selenium), by the DOM contract's roles and labels ----------------

UI_WAIT = 30.0
"""Upper bound for waiting on the page; a bound against hangs, not a speed assertion."""


def wait_for(driver: Any, condition: Any, what: str, timeout: float = UI_WAIT) -> Any:
    """Wait until `condition(driver)` is truthy and return it; fail saying what never happened."""
    from selenium.common.exceptions import (
        NoSuchElementException,
        StaleElementReferenceException,
        TimeoutException,
    )
    from selenium.webdriver.support.ui import WebDriverWait

    # The UI re-renders as answers and rounds arrive: an element found a moment ago may be
    # gone (stale) when the condition reads it; that only means "not yet", so look again.
    ignored = (NoSuchElementException, StaleElementReferenceException)
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=ignored).until(condition)
    except TimeoutException:
        raise AssertionError(f"the page never showed {what}") from None


def wait_css(driver: Any, selector: str, timeout: float = UI_WAIT) -> Any:
    """The first element matching `selector`, once it exists."""
    from selenium.webdriver.common.by import By

    def found(d: Any) -> Any:
        elements = d.find_elements(By.CSS_SELECTOR, selector)
        return elements[0] if elements else None

    return wait_for(driver, found, f"an element matching {selector!r}", timeout)


def wait_text(driver: Any, selector: str, text: str, timeout: float = UI_WAIT) -> Any:
    """The first element matching `selector` once its text contains `text`."""
    from selenium.webdriver.common.by import By

    def found(d: Any) -> Any:
        for element in d.find_elements(By.CSS_SELECTOR, selector):
            if text in element.text:
                return element
        return None

    return wait_for(driver, found, f"{text!r} in {selector!r}", timeout)


def control_by_label(scope: Any, label: str) -> Any:
    """The form control whose accessible label is `label` (a `<label for>` or a wrapping label)."""
    from selenium.webdriver.common.by import By

    literal = json.dumps(label)
    for lab in scope.find_elements(By.XPATH, ".//label"):
        if lab.text.strip().rstrip("*").strip() != label:
            continue
        target = lab.get_attribute("for")
        if target:
            # `for` names an id anywhere in the document, so look it up from the driver.
            return getattr(scope, "parent", scope).find_element(By.ID, target)
        inner = lab.find_elements(By.CSS_SELECTOR, "input, select, textarea")
        if inner:
            return inner[0]
    labelled = scope.find_elements(By.XPATH, f".//*[@aria-label={literal}]")
    if labelled:
        return labelled[0]
    raise AssertionError(f"no control labelled {label!r}")


def button(scope: Any, name: str) -> Any:
    """The button whose visible text (or aria-label) is `name`."""
    from selenium.webdriver.common.by import By

    for b in scope.find_elements(By.XPATH, ".//button"):
        if b.text.strip() == name or b.get_attribute("aria-label") == name:
            return b
    raise AssertionError(f"no button named {name!r}")
