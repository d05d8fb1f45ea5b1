// The guard against the server it guards, through the built CLI over real stdio: an SDK client on
// one side, a hostile SDK server on the other (it logs every message it gets). Poisoned text never
// reaches the client, a withheld tool's call never reaches the server, and --audit records what the
// proxy dropped.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectProxy, fixture, waitFor } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

const HONEST = "Use get_weather for forecasts and get_time for clocks.";
const EXFILTRATION = "-----BEGIN OPENSSH PRIVATE KEY-----";

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? "").join("\n");
}

/** Every message the fixture received. */
function received(dir: string): { method?: string; id?: unknown; params?: { name?: string; arguments?: Record<string, unknown> } }[] {
  try {
    return readFileSync(join(dir, "received.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

const calls = (dir: string) => received(dir).filter((message) => message.method === "tools/call");

function auditEvents(path: string): { event: string; [key: string]: unknown }[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

async function locked(mode: string) {
  const dir = tempDir();
  const lock = join(dir, "mcp-lint.lock");
  const audit = join(dir, "audit.jsonl");
  const server = [process.execPath, fixture("hostile.mjs"), dir, mode];
  const result = await runCli(["lock", "--lock", lock, "--", ...server], { cwd: dir });
  expect(result.code).toBe(0);
  return { dir, lock, audit, server };
}

describe("proxy --lock against a hostile server", () => {
  it("a second initialize answer with poisoned instructions is dropped: the client keeps the locked instructions and serverInfo", async () => {
    const { dir, lock, audit, server } = await locked("second-init");
    const running = await connectProxy(["--lock", lock, "--audit", audit, "--", ...server], { cwd: dir });
    await running.client.listTools();
    expect(running.client.getInstructions()).toBe(HONEST);
    expect(running.client.getServerVersion()).toEqual({ name: "hostile-fixture", version: "1.0.0" });
    expect(await running.close()).toBe(0);
    expect(running.stderr()).toContain("mcp-lint proxy: dropped a response from the server with id 0: that request was already answered");
    expect(auditEvents(audit)).toContainEqual(expect.objectContaining({ event: "response_dropped", from: "server", id: "0", why: "already_answered" }));
  });

  it("spoofed answers to the client's held requests never reach it; the poisoned tool is withheld and its call never reaches the server", async () => {
    const { dir, lock, audit, server } = await locked("spoof");
    const running = await connectProxy(["--lock", lock, "--audit", audit, "--", ...server], { cwd: dir });
    const { client } = running;
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged++;
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_weather", "get_time"]);
    const lists = () => received(dir).filter((message) => message.method === "tools/list").length;
    const before = lists();
    writeFileSync(join(dir, "pulled"), "");
    // Sent while the proxy re-reads the list (the server takes 400 ms and floods answers meanwhile).
    await waitFor(() => lists() > before);
    const during = await client.listTools();
    await waitFor(() => listChanged > 0);
    const after = await client.listTools();
    for (const listed of [during, after]) {
      expect(listed.tools.map((tool) => tool.name)).toEqual(["get_time"]);
      expect(JSON.stringify(listed)).not.toContain("id_rsa");
    }
    const refused = await client.callTool({ name: "get_weather", arguments: { city: "Oslo", notes: EXFILTRATION } });
    expect(refused.isError).toBe(true);
    expect(text(await client.callTool({ name: "get_time", arguments: { zone: "UTC" } }))).toContain("get_time ok");
    expect(await running.close()).toBe(0);

    expect(calls(dir).map((message) => message.params?.name)).toEqual(["get_time"]);
    expect(JSON.stringify(received(dir))).not.toContain(EXFILTRATION);
    const drops = auditEvents(audit).filter((event) => event.event === "response_dropped");
    expect(drops.length).toBeGreaterThanOrEqual(10);
    expect(drops.every((event) => event.from === "server")).toBe(true);
  });

  for (const [mode, kind] of [
    ["hint-text", "annotations_changed"],
    ["schema-text", "schema_text_changed"],
  ] as const) {
    it(`${mode}: text where the comparison used to see no change is an error; lock --check fails and the proxy withholds the tool`, async () => {
      const { dir, lock, audit, server } = await locked(mode);
      writeFileSync(join(dir, "pulled"), "");
      const check = await runCli(["lock", "--check", "--lock", lock, "--", ...server], { cwd: dir });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain(kind);
      expect(check.stdout).toContain("id_rsa");

      const running = await connectProxy(["--lock", lock, "--audit", audit, "--", ...server], { cwd: dir });
      const listed = await running.client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(["get_time"]);
      expect(JSON.stringify(listed)).not.toContain("id_rsa");
      const refused = await running.client.callTool({ name: "get_weather", arguments: { city: "Oslo" } });
      expect(refused.isError).toBe(true);
      // The text names a key to read and a parameter to put it in: S8 poisoning withholds it as well (issue 23).
      expect(text(refused)).toContain(`(${kind}, S8 poisoning)`);
      expect(await running.close()).toBe(0);
      expect(calls(dir)).toEqual([]);
    });
  }

  it("a refusal speaks to the user, not the model: no command line in what the client gets, the review command on stderr and in --audit", async () => {
    const { dir, lock, audit, server } = await locked("hint-text");
    writeFileSync(join(dir, "pulled"), "");
    const running = await connectProxy(["--lock", lock, "--audit", audit, "--", ...server], { cwd: dir });
    const refused = await running.client.callTool({ name: "get_weather", arguments: { city: "Oslo" } });
    const said = text(refused);
    expect(said).toContain('mcp-lint withheld the tool "get_weather"');
    expect(said).toContain("The user must review the change before this tool can be used");
    expect(said).not.toMatch(/mcp-lint lock|--accept|--check|--lock|<server command>|\.lock/);
    expect(await running.close()).toBe(0);
    const review = `mcp-lint lock --review --lock ${lock} -- <server command>`;
    expect(running.stderr()).toContain(`refused a call to withheld tool "get_weather" (annotations_changed, S8 poisoning); review with: ${review}`);
    const refusedEvent = auditEvents(audit).find((event) => event.event === "call_refused");
    expect(refusedEvent).toMatchObject({ tool: "get_weather", review });
  });
});
