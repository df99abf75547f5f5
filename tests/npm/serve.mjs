// A static file server on loopback for the browser drivers (tests/npm, tests/element).
// `pick(path)` maps a request path to [root directory, path inside it]; anything outside
// that root is refused (403), a missing file is 404, /favicon.ico is an empty 204.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join, extname, normalize } from "node:path";

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
};

/** Starts the server; resolves with it and its origin (`http://127.0.0.1:<port>`). */
export async function serveFiles(pick) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path === "/favicon.ico") {
      res.writeHead(204).end();
      return;
    }
    const [root, rest] = pick(path);
    const file = join(root, rest);
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}
