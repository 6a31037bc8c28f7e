// Drive an MCP server through the official TypeScript SDK client, one request per line.
//
//   node bridge.mjs --stdio COMMAND [ARG...]          spawn the server, talk over stdio
//   node bridge.mjs --url URL [--header "K: V"]...    streamable HTTP
//
// Reads JSON lines {"id", "method", "params"} on stdin, where method is a Client method
// (listTools, callTool, listPrompts, getPrompt, listResourceTemplates, readResource), and
// answers each with one JSON line {"id", "result"} or {"id", "error": {"message", "code"}}:
// whatever the SDK returned or threw (it validates structured content against each tool's
// output schema, so a non-conforming result comes back as an error). Exits when stdin closes.
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function transportFromArgs(args) {
  if (args[0] === "--stdio") {
    return new StdioClientTransport({ command: args[1], args: args.slice(2), env: process.env, stderr: "inherit" });
  }
  if (args[0] === "--url") {
    const headers = {};
    for (let i = 2; i < args.length; i += 2) {
      if (args[i] !== "--header") throw new Error(`unexpected argument ${args[i]}`);
      const at = args[i + 1].indexOf(":");
      headers[args[i + 1].slice(0, at).trim()] = args[i + 1].slice(at + 1).trim();
    }
    return new StreamableHTTPClientTransport(new URL(args[1]), { requestInit: { headers } });
  }
  throw new Error("usage: bridge.mjs --stdio COMMAND [ARG...] | --url URL [--header 'K: V']...");
}

const METHODS = new Set(["listTools", "callTool", "listPrompts", "getPrompt", "listResourceTemplates", "readResource"]);
const client = new Client({ name: "engram-ts-conformance", version: "1.0.0" });
await client.connect(transportFromArgs(process.argv.slice(2)));
const server = client.getServerVersion();
process.stdout.write(JSON.stringify({ id: 0, result: { server, instructions: client.getInstructions() } }) + "\n");

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const { id, method, params } = JSON.parse(line);
  let answer;
  try {
    if (!METHODS.has(method)) throw new Error(`unknown method ${method}`);
    answer = { id, result: await client[method](params) };
  } catch (error) {
    answer = { id, error: { message: String(error?.message ?? error), code: error?.code ?? null } };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
await client.close();
