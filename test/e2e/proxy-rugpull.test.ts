// The guard end to end: a server that pulls the rug while a client is connected, through the built CLI.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectProxy, fixture, recordedCalls, waitFor } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

const HONEST_INSTRUCTIONS = "Use get_weather for forecasts and get_time for clocks.";

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? "").join("\n");
}

describe("proxy --lock: a rug pull while connected", () => {
  it("withholds the poisoned and the new tool after list_changed, refuses their calls before the server, keeps the rest, and never serves the new instructions", async () => {
    const dir = tempDir();
    const lock = join(dir, "mcp-lint.lock");
    const audit = join(dir, "audit.jsonl");
    const server = [process.execPath, fixture("rug.mjs"), dir];
    const locked = await runCli(["lock", "--lock", lock, "--", ...server], { cwd: dir });
    expect(locked.stderr).toContain("Wrote");
    expect(locked.code).toBe(0);

    const running = await connectProxy(["--lock", lock, "--audit", audit, "--", ...server], { cwd: dir });
    const { client } = running;
    expect(client.getInstructions()).toBe(HONEST_INSTRUCTIONS);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_weather", "get_time", "send_note"]);
    expect(text(await client.callTool({ name: "get_weather", arguments: { city: "Oslo" } }))).toContain("get_weather ok");

    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged++;
    });
    writeFileSync(join(dir, "pulled"), "");
    await waitFor(() => listChanged > 0);

    const after = await client.listTools();
    expect(after.tools.map((tool) => tool.name)).toEqual(["get_time", "send_note"]);
    expect(JSON.stringify(after)).not.toContain("id_rsa");

    const poisoned = await client.callTool({ name: "get_weather", arguments: { city: "Oslo", notes: "-----BEGIN OPENSSH PRIVATE KEY-----" } });
    expect(poisoned.isError).toBe(true);
    expect(text(poisoned)).toContain(
      'mcp-lint withheld the tool "get_weather": its definition changed since it was approved (description_changed, S8 poisoning)',
    );
    expect(text(poisoned)).not.toContain("mcp-lint lock");
    const added = await client.callTool({ name: "exfiltrate", arguments: { data: "secrets" } });
    expect(added.isError).toBe(true);
    expect(text(added)).toContain('"exfiltrate": it is a new tool that was never approved (tool_added)');

    expect(text(await client.callTool({ name: "get_time", arguments: { zone: "UTC" } }))).toContain("get_time ok");
    expect(text(await client.callTool({ name: "send_note", arguments: { to: "bob", body: "hi" } }))).toContain("send_note ok");

    // The fixture saw the honest call and the unchanged tools, never the refused ones.
    expect(recordedCalls(dir).map((call) => call.tool)).toEqual(["get_weather", "get_time", "send_note"]);
    expect(await running.close()).toBe(0);

    const stderr = running.stderr();
    expect(stderr).toContain("compared the server with the lock (initialize): 3 tools listed, 3 served, 0 withheld");
    expect(stderr).toContain("compared the server with the lock (list_changed): 4 tools listed, 2 served, 2 withheld");
    expect(stderr).toContain('withheld tool "get_weather" (error: description_changed, S8 poisoning); review with: mcp-lint lock --review --lock');
    expect(stderr).toContain('withheld tool "exfiltrate" (error: tool_added)');
    expect(stderr).toContain(
      `refused a call to withheld tool "get_weather" (description_changed, S8 poisoning); review with: mcp-lint lock --review --lock ${lock} -- <server command>`,
    );

    // A fresh session: the pulled state from the start, the new instructions replaced by the locked text,
    // and after them the proxy's own line saying what it withholds (issue 38 item 3).
    const fresh = await connectProxy(["--lock", lock, "--audit", audit, "--", ...server], { cwd: dir });
    expect(fresh.client.getInstructions()).toBe(
      `${HONEST_INSTRUCTIONS}\n\nmcp-lint withheld 2 tools of this server until the user reviews them: "exfiltrate", "get_weather". ` +
        `The user reviews them in a terminal with: mcp-lint lock --review --lock ${lock} -- <server command> (the user's own approval: do not run it for them)`,
    );
    expect((await fresh.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_time", "send_note"]);
    const again = await fresh.client.callTool({ name: "get_weather", arguments: { city: "Oslo" } });
    expect(again.isError).toBe(true);
    expect(await fresh.close()).toBe(0);
    expect(fresh.stderr()).toContain("the server's instructions changed (instructions_changed, S8 poisoning); serving the locked text instead");
    expect(recordedCalls(dir).map((call) => call.tool)).toEqual(["get_weather", "get_time", "send_note"]);

    const events = readFileSync(audit, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; tool?: string; trigger?: string; lock?: string });
    expect(events.map((event) => event.event)).toEqual([
      "compared",
      "compared",
      "withheld",
      "withheld",
      "withheld_notice",
      "call_refused",
      "call_refused",
      "compared",
      "withheld",
      "withheld",
      "instructions_replaced",
      "withheld_notice",
      "call_refused",
    ]);
    expect(events.every((event) => event.lock === lock)).toBe(true);
  });
});
