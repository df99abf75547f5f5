// Type-checked against the installed package (tsc --noEmit in run.sh), never run: each export
// has types, and wrong arguments are errors (the @ts-expect-error lines fail if they are not).
import init, {
  compileSchema,
  compileValidator,
  completeElicitation,
  defineElements,
  elicit,
  initSync,
  validateContent,
  type ContentValidator,
  type ElicitResult,
  type FormSpec,
  type SchemaError,
  type ValidationResult,
} from "mcp-elicit";
import initClient, {
  McpClient,
  elicit as elicitFromClient,
  elicitationHandler as clientHandler,
  type ElicitationHandler as ClientElicitationHandler,
  initSync as initClientSync,
  type McpClientOptions,
  type ElicitResult as ClientElicitResult,
} from "mcp-elicit/client";
import initInline, { elicit as elicitInline } from "mcp-elicit/inline";
import initClientInline, { McpClient as InlineMcpClient } from "mcp-elicit/client/inline";
import * as library from "mcp-elicit";

// @ts-expect-error McpClient is the entry mcp-elicit/client's, not the library's
void library.McpClient;

export async function typed(slot: HTMLElement, bytes: Uint8Array): Promise<void> {
  await init();
  await init({ module_or_path: new URL("x.wasm", import.meta.url) });
  initSync({ module: bytes });

  const result: ElicitResult = await elicit(
    slot,
    { message: "m", requestedSchema: { type: "object", properties: {} } },
    { serverName: "S", serverHost: "s.example" },
  );
  if (result.action === "accept") {
    const content: { [key: string]: unknown } | undefined = result.content;
    void content;
  }
  await elicit(slot, { mode: "url", message: "m", url: "https://a.example", elicitationId: "e" });
  // @ts-expect-error URL mode needs an elicitationId
  await elicit(slot, { mode: "url", message: "m", url: "https://a.example" });
  // @ts-expect-error options name the server with strings
  await elicit(slot, { message: "m", requestedSchema: {} }, { serverHost: 1 });
  completeElicitation("e");

  await initInline();
  // @ts-expect-error the inline init takes no argument
  await initInline({ module_or_path: "x.wasm" });
  await initClientInline();
  // @ts-expect-error the inline init takes no argument
  await initClientInline({ module_or_path: "x.wasm" });
  await InlineMcpClient.connect("https://mcp.example/mcp", { container: slot });
  await elicitInline(slot, { message: "m", requestedSchema: { type: "object", properties: {} } });

  defineElements();
  const card = document.createElement("mcp-elicitation");
  card.params = { message: "m", requestedSchema: { type: "object", properties: {} } };
  card.addEventListener("answer", (e) => {
    const answer: ElicitResult = e.detail;
    void answer;
  });
  card.complete();
  // @ts-expect-error params are elicitation params
  card.params = { message: 1 };
  const shadowed: McpClientOptions = { container: slot.attachShadow({ mode: "open" }) };
  void shadowed;

  const spec: FormSpec = compileSchema({ type: "object", properties: {} });
  const checked: ValidationResult = validateContent({ type: "object" }, {});
  const inGerman: FormSpec = compileSchema({ type: "object" }, { locale: "de" });
  const inChinese: ValidationResult = validateContent({ type: "object" }, {}, { locale: "zh-CN" });
  // @ts-expect-error a locale is a language tag
  compileSchema({ type: "object" }, { locale: 7 });
  void inGerman;
  void inChinese;
  const refusal = {} as SchemaError;
  const why: [string, string, string | number | undefined] = [refusal.path, refusal.code, refusal.data?.name];
  void why;
  const validator: ContentValidator = compileValidator({ type: "object" });
  const again: ValidationResult = validator.validate({});
  validator.free();
  // @ts-expect-error a validator takes the content only
  validator.validate({}, {});
  void spec;
  void checked;
  void again;

  // mcp-elicit/client: its own init, the same elicit, and McpClient.
  await initClient({ module_or_path: new URL("mcp_elicit_host_bg.wasm", import.meta.url) });
  // The client entry's init answers its own wasm's exports, not the library's.
  const clientExports = initClientSync({ module: bytes });
  void clientExports.mcpclient_connect;
  // @ts-expect-error the library's wasm has no McpClient
  void initSync({ module: bytes }).mcpclient_connect;
  const fromClient: ClientElicitResult = await elicitFromClient(slot, { message: "m", requestedSchema: {} });
  void fromClient;
  const handler: ClientElicitationHandler = clientHandler({ container: slot, serverUrl: "https://mcp.example/mcp" });
  // @ts-expect-error the container is an element
  clientHandler({ container: "slot" });
  void handler;
  const options: McpClientOptions = { container: slot, protocol: "auto", maxRounds: 3 };
  const client = await McpClient.connect("https://mcp.example/mcp", options);
  if (client instanceof McpClient) {
    const version: string = client.protocolVersion;
    void version;
  }
  await client.callTool("t", {});
  await client.close();
  // @ts-expect-error the container is required
  await McpClient.connect("https://mcp.example/mcp", { protocol: "auto" });
  // @ts-expect-error not a protocol version
  await McpClient.connect("https://mcp.example/mcp", { container: slot, protocol: "2024" });
  await McpClient.connect("https://mcp.example/mcp", {
    container: slot,
    onElicitation: async (params, info) =>
      info.mode === "form" && params.message.startsWith("Delete") ? { action: "decline" } : undefined,
  });
  await McpClient.connect("https://mcp.example/mcp", {
    container: slot,
    // @ts-expect-error an answer is an ElicitResult
    onElicitation: () => ({ action: "maybe" }),
  });
}
