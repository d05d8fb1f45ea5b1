// Everything that is not a tool list passes the proxy unchanged: prompts, resources, completions,
// logging, sampling, elicitation, roots, progress and cancellation, ids kept, in both modes.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectProxy, fixture, waitFor } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? "").join("\n");
}

const capabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

describe.each([
  ["with --lock", true],
  ["fixing (no lock)", false],
])("proxy pass-through %s", (_label, guarded) => {
  it("passes prompts, resources, completions, logging, sampling, elicitation, roots, progress and cancellation", async () => {
    const dir = tempDir();
    const server = [process.execPath, fixture("everything.mjs"), dir];
    const args = ["--", ...server];
    if (guarded) {
      const lock = join(dir, "mcp-lint.lock");
      expect((await runCli(["lock", "--lock", lock, "--", ...server], { cwd: dir })).code).toBe(0);
      args.unshift("--lock", lock);
    }
    const proxied = await connectProxy(args, { cwd: dir, capabilities });
    const { client } = proxied;
    // Capabilities, serverInfo and instructions come from the server.
    expect(client.getServerVersion()).toEqual({ name: "everything-fixture", version: "2.0.0" });
    expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, resources: {}, tools: {}, logging: {}, completions: {} });
    expect(client.getInstructions()).toBe("A fixture that exercises every MCP feature.");

    // Prompts and completions.
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
    const prompt = await client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Say hello to Ada." });
    const completion = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "Al" } });
    expect(completion.completion.values).toEqual(["Alice", "Albert"]);

    // Resources and templates.
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(["file:///readme.txt"]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual(["note://{id}"]);
    expect((await client.readResource({ uri: "file:///readme.txt" })).contents[0]).toMatchObject({ text: "Read me first." });
    expect((await client.readResource({ uri: "note://7" })).contents[0]).toMatchObject({ text: "Note 7." });

    // Server-to-client requests: sampling, elicitation, roots.
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: "assistant",
      model: "test-model",
      content: { type: "text", text: `echo ${(request.params.messages[0]?.content as { text: string } | undefined)?.text}` },
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { colour: "teal" } }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
    expect(text(await client.callTool({ name: "ask_model", arguments: { question: "2+2?" } }))).toBe("model said: echo 2+2?");
    expect(text(await client.callTool({ name: "ask_user", arguments: {} }))).toBe('user said: accept {"colour":"teal"}');
    expect(text(await client.callTool({ name: "list_roots", arguments: {} }))).toBe("file:///work");

    // Logging, progress and cancellation on one call.
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(String(notification.params.data));
    });
    await client.setLoggingLevel("debug");
    const progress: number[] = [];
    const abort = new AbortController();
    const counting = client.callTool({ name: "count", arguments: { to: 3 } }, undefined, {
      signal: abort.signal,
      onprogress: (update) => progress.push(update.progress),
    });
    await waitFor(() => logs.includes("counted to 3"));
    abort.abort("enough");
    await expect(counting).rejects.toThrow();
    expect(progress).toEqual([1, 2, 3]);
    await waitFor(() => existsSync(join(dir, "cancelled")));
    // The server saw the call, and its cancellation, under the very id the client used: ids pass unchanged.
    const call = proxied.sent.find(
      (message) => "method" in message && message.method === "tools/call" && (message.params as { name?: string }).name === "count",
    );
    expect(call !== undefined && "id" in call).toBe(true);
    expect(readFileSync(join(dir, "cancelled"), "utf8")).toBe(String((call as { id: number }).id));

    expect(text(await client.callTool({ name: "shout", arguments: { text: "done" } }))).toBe("DONE");
    expect(await proxied.close()).toBe(0);
  });
});
