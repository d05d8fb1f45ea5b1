// Order toward a remote upstream, through the built CLI: `proxy --url` sends each message once the
// previous one was accepted, and forwards the client's first request only once the upstream's
// standalone GET stream is open, so a server request sent right after the first tools/call
// (elicitation, sampling without relatedRequestId) is never lost.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectProxy, fixture } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

let server: ChildProcess;
let url = "";

beforeAll(async () => {
  server = spawn(process.execPath, [fixture("asks-http.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
  url = await new Promise<string>((done, fail) => {
    let text = "";
    server.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = /LISTENING (\S+)/.exec(text);
      if (match) done(match[1] as string);
    });
    server.once("exit", () => fail(new Error("fixture exited")));
  });
});

afterAll(() => {
  server.kill("SIGTERM");
});

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? "").join("\n");
}

/** One session: connect, call both tools at once, as a client does right after initialize. */
async function session(args: string[], dir: string): Promise<string[]> {
  const running = await connectProxy([...args, "--url", url], { cwd: dir, capabilities: { elicitation: {}, sampling: {} } });
  running.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
  running.client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: "assistant", content: { type: "text", text: "hello" }, model: "m" }));
  try {
    // A lost server request hangs its call: the request timeout turns that into a failure.
    const results = await Promise.all([
      running.client.callTool({ name: "elicit", arguments: {} }, undefined, { timeout: 15_000 }),
      running.client.callTool({ name: "sample", arguments: {} }, undefined, { timeout: 15_000 }),
    ]);
    return results.map(text);
  } finally {
    await running.close();
  }
}

describe("proxy --url keeps order toward the upstream", () => {
  it("without a lock: every session's first calls get their elicitation and sampling answers (8 sessions)", async () => {
    const dir = tempDir();
    for (let round = 0; round < 8; round++) {
      expect(await session(["--no-paging", "--no-errors"], dir)).toEqual(['elicited {"name":"Ada"}', "sampled hello"]);
    }
  });

  it("with a lock: the same, through the guard (3 sessions)", async () => {
    const dir = tempDir();
    const lock = join(dir, "mcp-lint.lock");
    expect((await runCli(["lock", "--lock", lock, "--url", url], { cwd: dir })).code).toBe(0);
    for (let round = 0; round < 3; round++) {
      expect(await session(["--lock", lock], dir)).toEqual(['elicited {"name":"Ada"}', "sampled hello"]);
    }
  });
});
