// Type-checked against the installed package and the TypeScript SDK (tsc -p
// tsconfig.sdk.json in run.sh), never run: elicitationHandler's handlers fit the SDK's
// setRequestHandler / setNotificationHandler as they are, and wrong options are errors.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, ElicitationCompleteNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { elicitationHandler, type ElicitationHandler, type ElicitationHandlerResult } from "mcp-elicit";

export async function typed(container: HTMLElement): Promise<void> {
  const handler: ElicitationHandler = elicitationHandler({ container, serverUrl: new URL("https://mcp.example/mcp") });
  const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: handler.capabilities });
  client.setRequestHandler(ElicitRequestSchema, handler.handleRequest);
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, handler.handleComplete);

  const other = new Client({ name: "host", version: "1.0.0" });
  const same: Client = elicitationHandler({ container, serverHost: "mcp.example", serverName: "Example", client: other })
    .install(other, { ElicitRequestSchema, ElicitationCompleteNotificationSchema });
  void same;

  const answer: ElicitationHandlerResult = await handler.handleRequest({
    method: "elicitation/create",
    params: { message: "m", requestedSchema: { type: "object", properties: {} } },
  });
  if (answer.action === "accept" && answer.content) {
    const value: string | number | boolean | string[] | undefined = answer.content.name;
    void value;
  }
  const count: number = handler.pending;
  void count;
  handler.dispose();

  // @ts-expect-error the container is required
  elicitationHandler({ serverUrl: "https://mcp.example/mcp" });
  // @ts-expect-error serverHost is a string
  elicitationHandler({ container, serverHost: 443 });
  // @ts-expect-error install needs the SDK's schemas
  handler.install(client);
}
