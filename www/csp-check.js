// The script of csp-check.html (a file: the page's CSP forbids inline scripts).
import init, { compileSchema, validateContent, elicit, McpClient } from "./pkg/mcp_elicit_web.js";
import { refuseIfFramed } from "./frame-guard.js";

if (refuseIfFramed()) throw new Error("framed: not started");

const out = (id) => document.querySelector(`[data-testid=csp-${id}]`);
const failure = (e) => `${e && e.name}: ${e && e.message}`;
const violations = out("violations");
document.addEventListener("securitypolicyviolation", (e) => {
  violations.textContent += `${e.violatedDirective} ${e.blockedURI}; `;
});

await init();

const schema = {
  type: "object",
  properties: { name: { type: "string", title: "Your name", minLength: 2 } },
  required: ["name"],
};
try {
  out("compile").textContent = "ok: " + JSON.stringify(compileSchema(schema).fields.map((f) => f.name));
} catch (e) {
  out("compile").textContent = failure(e);
}
try {
  out("validate").textContent = "ok: " + JSON.stringify(validateContent(schema, { name: "Ada" }));
} catch (e) {
  out("validate").textContent = failure(e);
}
try {
  const cyclic = { type: "object", properties: {} };
  cyclic.properties.self = cyclic;
  out("cyclic").textContent = "compiled?! " + JSON.stringify(compileSchema(cyclic));
} catch (e) {
  out("cyclic").textContent = failure(e);
}

const query = new URLSearchParams(location.search);
if (query.get("server")) {
  try {
    const client = await McpClient.connect(query.get("server"), {
      container: document.getElementById("requests"),
      protocol: query.get("protocol") || "auto",
      roots: [{ uri: "file:///home/me/project", name: undefined }],
    });
    const result = await client.callTool("list_my_roots", {});
    out("client").textContent = "ok: " + result.content[0].text;
  } catch (e) {
    out("client").textContent = failure(e);
  }
}

elicit(document.getElementById("slot"), { message: "Who are you?", requestedSchema: schema }).then(
  (result) => { out("elicit").textContent = "ok: " + JSON.stringify(result); },
  (e) => { out("elicit").textContent = failure(e); },
);
