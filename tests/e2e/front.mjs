// A front for one MCP server, for e2e tests: `node front.mjs PORT UPSTREAM LOG`.
//
// Listens on 127.0.0.1:PORT and sends every request on to the origin UPSTREAM (same path),
// streaming each answer back as it comes (SSE included). Two things are added:
// - a record of what the page sent: each request, a JSON line in LOG (`method`, `path`,
//   `session`: its Mcp-Session-Id, `body`: the JSON-RPC message(s) it carried, or null),
//   written before the request goes on, so a test reads what reached the server;
// - CORS for a page on another origin, for servers that send none (the SDK's examples): a
//   preflight is answered here, and every answer gets Access-Control-Allow-Origin and
//   -Expose-Headers (every header of the answer); the server's own are replaced.
// When the page goes away (an aborted fetch, a closed stream), the server's side is
// closed too, as a direct connection would be.
import fs from "node:fs";
import http from "node:http";

const [port, upstream, logPath] = process.argv.slice(2);
const target = new URL(upstream);
const log = fs.openSync(logPath, "a");
const agent = new http.Agent({ keepAlive: true });
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host"]);

function cors(origin) {
  return { "access-control-allow-origin": origin ?? "*", vary: "Origin" };
}

http
  .createServer((req, res) => {
    const origin = req.headers.origin;
    if (req.method === "OPTIONS") {
      res
        .writeHead(204, {
          ...cors(origin),
          "access-control-allow-methods": req.headers["access-control-request-method"] ?? "GET, POST, DELETE",
          "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
        })
        .end();
      req.resume();
      return;
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let body = null;
      try {
        body = raw.length ? JSON.parse(raw.toString("utf8")) : null;
      } catch {
        body = raw.toString("utf8");
      }
      const session = req.headers["mcp-session-id"] ?? null;
      fs.writeSync(log, JSON.stringify({ method: req.method, path: req.url, session, body }) + "\n");
      const headers = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (!HOP_BY_HOP.has(name)) headers[name] = value;
      }
      const up = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers, agent },
        (answer) => {
          const out = {};
          for (const [name, value] of Object.entries(answer.headers)) {
            if (!HOP_BY_HOP.has(name) && !name.startsWith("access-control-")) out[name] = value;
          }
          const expose = Object.keys(out).join(", ");
          Object.assign(out, cors(origin));
          if (expose) out["access-control-expose-headers"] = expose;
          res.writeHead(answer.statusCode ?? 502, out);
          res.flushHeaders();
          answer.pipe(res);
          answer.on("error", () => res.destroy());
        },
      );
      up.on("error", (err) => {
        if (res.headersSent) res.destroy();
        else res.writeHead(502, { "content-type": "text/plain", ...cors(origin) }).end(`front: ${err.message}`);
      });
      res.on("close", () => {
        if (!res.writableFinished) up.destroy();
      });
      up.end(raw);
    });
  })
  .listen(Number(port), "127.0.0.1");
