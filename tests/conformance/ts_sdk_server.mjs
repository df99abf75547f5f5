#!/usr/bin/env node
// An MCP server made with the official TypeScript SDK (@modelcontextprotocol/sdk 1.x,
// pinned in package.json; protocol 2025-11-25 and older, no server/discover), set up the
// way the SDK's own Streamable HTTP example is: one transport per session, created by
// `initialize`; any other request without a session is refused with HTTP 400. For
// tests/e2e/test_ts_sdk_server.py.
//
//   node tests/conformance/ts_sdk_server.mjs <port> [--held]
//
// Tools:
//   every_field   one form elicitation with every field kind the spec has (each with a
//                 default), answers the ElicitResult it got back as JSON text (the SDK has
//                 already checked the content against the schema)
//   sign_in       a URL-mode elicitation to http://127.0.0.1:<port>/signed-in?id=<id>;
//                 loading that page is "finishing the flow": the server then sends
//                 notifications/elicitation/complete for <id>
//   task_question a form elicitation asked *as a task* (2025-11-25 tasks; the client must
//                 declare tasks.requests.elicitation.create), args { cancel?, ttl? }:
//                 with cancel, the server cancels the task at once (tasks/cancel) and
//                 answers `task_question: cancelled -> <status>`; else it polls tasks/get
//                 every 100 ms (at most 600 times) until the task ends or is gone, then
//                 answers `task_question: <action>` (from tasks/result) or
//                 `task_question: gone: <error message>`
// With --held (tests/npm/drive-sdk.mjs), also:
//   held_question a form elicitation that drop_question withdraws (the SDK then sends
//                 notifications/cancelled); answers `held_question: <action>` or
//                 `held_question: withdrawn`
//   drop_question withdraws this session's held questions; answers `dropped <n>`
//
// CORS: answers for loopback page origins only (what a server for a browser client must
// send); the session and version headers are exposed to the page.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CreateTaskResultSchema, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const port = Number(process.argv[2]);
const withHeld = process.argv.includes("--held");
if (!Number.isInteger(port) || port <= 0) {
  console.error("usage: ts_sdk_server.mjs <port> [--held]");
  process.exit(2);
}

const EVERY_FIELD = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", minLength: 1, default: "Ada" },
    email: { type: "string", title: "Email", format: "email", default: "ada@example.com" },
    website: { type: "string", title: "Website", format: "uri", default: "https://example.com" },
    birthday: { type: "string", title: "Birthday", format: "date", default: "1815-12-10" },
    meeting: { type: "string", title: "Meeting", format: "date-time", default: "2025-06-01T09:30:00Z" },
    height: { type: "number", title: "Height", minimum: 0, maximum: 3, default: 1.7 },
    guests: { type: "integer", title: "Guests", minimum: 1, maximum: 10, default: 2 },
    subscribe: { type: "boolean", title: "Subscribe", default: false },
    size: { type: "string", title: "Size", enum: ["small", "medium", "large"], default: "medium" },
    colour: {
      type: "string",
      title: "Colour",
      oneOf: [
        { const: "r", title: "Red" },
        { const: "g", title: "Green" },
        { const: "b", title: "Blue" },
      ],
      default: "g",
    },
    toppings: {
      type: "array",
      title: "Toppings",
      items: { type: "string", enum: ["cheese", "ham", "olives"] },
      default: ["cheese"],
    },
    days: {
      type: "array",
      title: "Days",
      items: {
        anyOf: [
          { const: "mon", title: "Monday" },
          { const: "tue", title: "Tuesday" },
          { const: "wed", title: "Wednesday" },
        ],
      },
      default: ["mon"],
    },
  },
  required: ["name", "email", "guests"],
};

// elicitationId -> the notifier of the session that asked.
const completions = new Map();

function makeServer() {
  const server = new McpServer({ name: "ts-sdk-test-server", version: "1.0.0" });
  server.registerTool("every_field", { description: "Asks one form with every field kind." }, async () => {
    const result = await server.server.elicitInput({
      mode: "form",
      message: "Every field kind, please.",
      requestedSchema: EVERY_FIELD,
    });
    return { content: [{ type: "text", text: JSON.stringify(result) }] };
  });
  server.registerTool("sign_in", { description: "Asks the user to sign in on a web page." }, async () => {
    const elicitationId = randomUUID();
    completions.set(elicitationId, server.server.createElicitationCompletionNotifier(elicitationId));
    const result = await server.server.elicitInput({
      mode: "url",
      message: "Sign in to continue.",
      url: `http://127.0.0.1:${port}/signed-in?id=${elicitationId}`,
      elicitationId,
    });
    return { content: [{ type: "text", text: `sign_in: ${result.action}` }] };
  });
  registerTaskQuestion(server);
  if (withHeld) registerHeld(server);
  return server;
}

function registerTaskQuestion(server) {
  const schema = { cancel: z.boolean().optional(), ttl: z.number().optional() };
  const anyTask = z.looseObject({ status: z.string() });
  const text = (t) => ({ content: [{ type: "text", text: `task_question: ${t}` }] });
  server.registerTool("task_question", { description: "Asks a question as a task.", inputSchema: schema }, async ({ cancel, ttl }, extra) => {
    const created = await extra.sendRequest(
      {
        method: "elicitation/create",
        params: {
          task: { ttl: ttl ?? 600000 },
          mode: "form",
          message: "A question asked as a task.",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean", title: "OK" } } },
        },
      },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    if (cancel) {
      const after = await extra.sendRequest({ method: "tasks/cancel", params: { taskId } }, anyTask);
      return text(`cancelled -> ${after.status}`);
    }
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 100));
      let task;
      try {
        task = await extra.sendRequest({ method: "tasks/get", params: { taskId } }, anyTask);
      } catch (e) {
        return text(`gone: ${e.message}`);
      }
      if (["completed", "failed", "cancelled"].includes(task.status)) {
        const result = await extra.sendRequest({ method: "tasks/result", params: { taskId } }, z.looseObject({}));
        return text(String(result.action));
      }
    }
    return text("never ended");
  });
}

function registerHeld(server) {
  const held = new Set();
  server.registerTool("held_question", { description: "Asks a question drop_question withdraws." }, async () => {
    const controller = new AbortController();
    held.add(controller);
    try {
      const result = await server.server.elicitInput(
        {
          mode: "form",
          message: "A question the server may withdraw.",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean", title: "OK" } } },
        },
        { signal: controller.signal },
      );
      return { content: [{ type: "text", text: `held_question: ${result.action}` }] };
    } catch {
      return { content: [{ type: "text", text: "held_question: withdrawn" }] };
    } finally {
      held.delete(controller);
    }
  });
  server.registerTool("drop_question", { description: "Withdraws the held questions." }, async () => {
    const n = held.size;
    for (const controller of held) controller.abort("withdrawn by drop_question");
    return { content: [{ type: "text", text: `dropped ${n}` }] };
  });
}

const transports = new Map();

function loopback(origin) {
  try {
    const host = new URL(origin).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
  } catch {
    return false;
  }
}

function cors(req, res) {
  const origin = req.headers.origin;
  if (origin && loopback(origin)) {
    res.setHeader("access-control-allow-origin", origin);
    res.setHeader("vary", "Origin");
    res.setHeader("access-control-expose-headers", "mcp-session-id, mcp-protocol-version");
  }
}

function readJson(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        resolve(undefined);
      }
    });
  });
}

const httpServer = http.createServer(async (req, res) => {
  cors(req, res);
  const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
  if (url.pathname === "/signed-in") {
    const notify = completions.get(url.searchParams.get("id") ?? "");
    completions.delete(url.searchParams.get("id") ?? "");
    if (notify) await notify().catch((e) => console.error("completion not sent:", e));
    res.writeHead(notify ? 200 : 404, { "content-type": "text/plain" }).end(notify ? "Signed in." : "Unknown sign-in.");
    return;
  }
  if (url.pathname !== "/mcp") {
    res.writeHead(404).end();
    return;
  }
  if (req.method === "OPTIONS") {
    res.writeHead(204, {
      "access-control-allow-methods": "GET, POST, DELETE",
      "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "",
    });
    res.end();
    return;
  }
  const sessionId = req.headers["mcp-session-id"];
  const body = req.method === "POST" ? await readJson(req) : undefined;
  let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
  if (!transport && req.method === "POST" && sessionId === undefined && isInitializeRequest(body)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await makeServer().connect(transport);
  }
  if (!transport) {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null }));
    return;
  }
  await transport.handleRequest(req, res, body);
});

httpServer.listen(port, "127.0.0.1", () => console.error(`ts-sdk-test-server on http://127.0.0.1:${port}/mcp`));
