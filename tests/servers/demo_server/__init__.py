"""Demo MCP server for mcp-elicit: the official Python SDK (`mcp==2.3.0`) over Streamable HTTP.

One endpoint, `/mcp`, serves both protocol eras: the SDK tells a 2026-07-28 request
(self-contained, `_meta` envelope) from a 2025-11-25 session request on its own.

Run it with the venv's python: `python tests/servers/demo_server --port 8001` (`--help`
lists the options). The modules, each with its own manual:

- `texts`: every text the tests check (questions, field titles, option labels, results,
  error words). The tools build their messages from it; the e2e tests import it.
- `tools/`: the tools, one module per kind (`booking`: the SDK's seed examples and URL
  mode; `forms`; `client`: sampling and roots; `streams`: the streams `--resumable`
  drops; `faults`: answers a client must retry). `prompts`: the prompt and the resource
  template.
- `common`: the era check, strict answer models, the refusal words, `ask_form`.
- `app`: the MCP server and the ASGI app (CORS, DNS-rebinding allow-list, static files).
- `middleware`: CORS for `Mcp-Param-*`, no-framing headers, the wire faults of
  `flaky_note`/`cut_note`, `--stall-discover`, `--trace`/`--arrivals`.
- `events`: `--resumable`'s bounded event store, one log per session.
- `cli`: the options; `--port 0` with `--port-file` for parallel test runs.
- `auth` (`--auth`, `--api-key`): credentials the endpoint asks for; `oauth`: the
  authorization server `--auth` runs on another port (the SDK's `mcp.server.auth`).

Options in short: `--no-cors` leaves the stock SDK behaviour (preflight gets 405).
`--static DIR` serves a directory on the same origin (at `/`), beside `/mcp`, with the
no-framing headers `static_server.py` sends. `--trace FILE` appends every HTTP exchange
to FILE (JSON lines: request and response headers and bodies, SSE streams as sent, when
it started and ended); `--arrivals FILE` appends a line the moment each request arrives,
so a test sees a request that is still open. `--state-key` fixes the `requestState`
sealing key, so a restarted server still accepts a replay sealed before the restart (the
fault tests rely on this). `--resumable`: see `events`. `--region-header NAME` renames
`book_in_region`'s header. `--stateless`: the SDK's stateless HTTP. `--stall-discover`:
`server/discover` is never answered. `--slow-report-min-gap-ms MS`: the spacing
`slow_report` demands of retries (`tools.faults`). `--auth` (with `--auth-port`,
`--token-ttl`, `--consent`) and `--api-key KEY`, `--auth-log FILE`: see `auth`.

This package imports nothing at its top, so `from demo_server.texts import ...` does not
load the SDK.
"""
