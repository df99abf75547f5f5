// A forward HTTP proxy that lets a page read the conformance suite's servers, which send
// no CORS headers, without changing any URL.
//
// The conformance client (client.mjs) gives it to its browser context as the context's
// proxy (Playwright adds `<-loopback>` to the bypass rules, so even the loopback servers of
// the suite are reached through it). Every request goes to the URL the page asked for:
// the scenario servers' metadata name their real URLs (`resource`, `issuer`, the
// authorization server on another port), and a correct client checks them, so a front
// that rewrote URLs would make it refuse them.
//
// What it adds is what a server that welcomes browser clients would send:
// - a CORS preflight (OPTIONS with Access-Control-Request-Method) is answered here and
//   never reaches the server: the method and headers asked for are allowed;
// - every answer to a request with an Origin gets Access-Control-Allow-Origin (that
//   origin), -Allow-Credentials and -Expose-Headers (every header of the answer, e.g.
//   WWW-Authenticate, Mcp-Session-Id); the server's own Access-Control-* headers are
//   replaced.
// Answers stream through as they come (SSE included); when either side closes, so does
// the other. Only loopback hosts are forwarded (no network here); CONNECT (https) is
// refused.
import http from "node:http";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
// Headers of one connection, not of the message: each side has its own.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function endToEnd(headers) {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name) && !named.includes(name)) out[name] = value;
  }
  return out;
}

function corsHeaders(origin) {
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-credentials": "true",
    vary: "Origin",
  };
}

/**
 * Starts the proxy on a loopback port. Returns `{ url, port, stats, close() }`:
 * `url` is what a browser takes as its proxy server, `stats` counts the requests
 * forwarded (preflights not included), and `close()` ends every connection of both sides.
 */
export async function startCorsProxy({ log = () => {} } = {}) {
  const agent = new http.Agent({ keepAlive: true });
  const stats = { requests: 0, preflights: 0 };
  const server = http.createServer((req, res) => {
    let target;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("proxy: the request target is not an absolute URL");
      return;
    }
    const origin = req.headers.origin;
    if (target.protocol !== "http:" || !LOOPBACK.has(target.hostname)) {
      log(`proxy: refused ${req.method} ${target.origin} (only loopback http is forwarded)`);
      res.writeHead(502, { "content-type": "text/plain" }).end("proxy: only loopback http URLs are forwarded");
      return;
    }
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
      stats.preflights++;
      const allow = {
        ...corsHeaders(origin ?? "*"),
        "access-control-allow-methods": req.headers["access-control-request-method"],
        "access-control-max-age": "600",
      };
      if (req.headers["access-control-request-headers"]) {
        allow["access-control-allow-headers"] = req.headers["access-control-request-headers"];
      }
      if (req.headers["access-control-request-private-network"]) {
        allow["access-control-allow-private-network"] = "true";
      }
      res.writeHead(204, allow).end();
      req.resume();
      return;
    }
    stats.requests++;
    const up = http.request(target, { method: req.method, headers: endToEnd(req.headers), agent }, (answer) => {
      const headers = {};
      for (const [name, value] of Object.entries(endToEnd(answer.headers))) {
        if (!name.startsWith("access-control-")) headers[name] = value;
      }
      if (origin) {
        const expose = Object.keys(headers).join(", ");
        Object.assign(headers, corsHeaders(origin));
        if (expose) headers["access-control-expose-headers"] = expose;
      }
      res.writeHead(answer.statusCode ?? 502, headers);
      res.flushHeaders();
      answer.pipe(res);
      answer.on("error", () => res.destroy());
      answer.on("aborted", () => res.destroy());
    });
    up.on("error", (err) => {
      if (res.headersSent) {
        res.destroy();
      } else {
        const headers = { "content-type": "text/plain", ...(origin ? corsHeaders(origin) : {}) };
        res.writeHead(502, headers).end(`proxy: ${target.origin}: ${err.message}`);
      }
    });
    // The page went away (an aborted fetch, a closed stream): the server is told too.
    res.on("close", () => {
      if (!res.writableFinished) up.destroy();
    });
    req.pipe(up);
  });
  // https would need CONNECT; nothing here is https, and nothing leaves the machine.
  server.on("connect", (req, socket) => {
    log(`proxy: refused CONNECT ${req.url}`);
    socket.end("HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n");
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    close() {
      server.closeAllConnections();
      agent.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
