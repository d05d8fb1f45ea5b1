// Prompts, resources and resource templates under the lock, end to end: the built CLI's proxy
// between an SDK client and a fixture server with a catalog (notes-catalog.mjs), over real stdio. What
// changed or is new is withheld from the lists and refused on get/read before the server sees it;
// a v1 lock lets them pass and says so once.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectProxy, fixture, waitFor } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

/** Every request the fixture received, as {method, params}. */
function requests(dir: string): { method: string; params: { name?: string; uri?: string } }[] {
  try {
    return readFileSync(join(dir, "requests.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

const reads = (dir: string) =>
  requests(dir)
    .filter((request) => request.method === "resources/read")
    .map((request) => request.params.uri);
const gets = (dir: string) =>
  requests(dir)
    .filter((request) => request.method === "prompts/get")
    .map((request) => request.params.name);

/** Lock the honest fixture: a v2 lock (named with --server) pins its catalog, a v1 lock does not. */
async function locked(mode: string, version: 1 | 2) {
  const dir = tempDir();
  const lock = join(dir, "mcp-lint.lock");
  const audit = join(dir, "audit.jsonl");
  const server = [process.execPath, fixture("notes-catalog.mjs"), dir, mode];
  const named = version === 2 ? ["--server", "notes"] : [];
  const result = await runCli(["lock", "--lock", lock, ...named, "--", ...server], { cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  const written = JSON.parse(readFileSync(lock, "utf8")) as { lockfile_version: number };
  expect(written.lockfile_version).toBe(version);
  return { dir, lock, audit, server };
}

const NEW_PROMPT = "helper\u202Etxt.exe\u001b[2J";

describe("proxy --lock with a v2 lock: prompts, resources and templates", () => {
  it("withholds a changed and a new prompt, a changed resource and a changed template from the lists and refuses their get/read before the server", async () => {
    const { dir, lock, audit, server } = await locked("plain", 2);
    writeFileSync(join(dir, "pulled"), "");
    const running = await connectProxy(["--lock", lock, "--audit", audit, "--", ...server], { cwd: dir });
    const { client } = running;

    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(["notes://archive"]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual(["notes://tag/{tag}"]);

    await expect(client.getPrompt({ name: "summarize", arguments: { note: "x" } })).rejects.toThrow(
      'mcp-lint withheld the prompt "summarize": its definition changed since it was approved (prompt_changed, S8 poisoning). The request was not sent to the server.',
    );
    await expect(client.getPrompt({ name: NEW_PROMPT })).rejects.toThrow(
      /mcp-lint withheld the prompt "helper\\+u\{202E\}txt\.exe\\+u\{1B\}\[2J": it is a new prompt that was never approved \(prompt_added/,
    );
    await expect(client.readResource({ uri: "notes://daily" })).rejects.toThrow(
      'mcp-lint withheld the resource "notes://daily": its definition changed since it was approved (resource_changed).',
    );
    await expect(client.readResource({ uri: "notes://by-date/2024-05-01" })).rejects.toThrow(
      'mcp-lint did not send this read of "notes://by-date/2024-05-01": it fits the resource template "notes://by-date/{date}", which mcp-lint withheld: its definition changed since it was approved (resource_template_changed).',
    );
    await expect(client.readResource({ uri: "notes://elsewhere" })).rejects.toThrow(
      'the server lists no resource "notes://elsewhere" and no approved resource template fits it',
    );

    // What is unchanged is served, and reaches the server (greet's hidden TAG characters removed).
    expect((await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).messages[0]?.content).toEqual({ type: "text", text: "Say hello to Ada." });
    expect((await client.readResource({ uri: "notes://archive" })).contents[0]).toMatchObject({ text: "Old notes." });
    expect((await client.readResource({ uri: "notes://tag/work" })).contents[0]).toMatchObject({ text: "Notes tagged work." });
    expect(await running.close()).toBe(0);

    expect(gets(dir)).toEqual(["greet"]);
    expect(reads(dir)).toEqual(["notes://archive", "notes://tag/work"]);

    const stderr = running.stderr();
    expect(stderr).toContain(
      "compared the server with the lock (initialize): 1 tool listed, 1 served, 0 withheld, 4 changes; 3 prompts listed, 1 served, 2 withheld; " +
        "2 resources listed, 1 served, 1 withheld; 2 resource templates listed, 1 served, 1 withheld; instructions as sent",
    );
    expect(stderr).toContain('withheld prompt "summarize" (error: prompt_changed, S8 poisoning); review with: mcp-lint lock --review --lock');
    expect(stderr).toMatch(/withheld prompt "helper\\+u\{202E\}txt\.exe\\+u\{1B\}\[2J" \(error: prompt_added/);
    expect(stderr).toContain('withheld resource "notes://daily" (error: resource_changed)');
    expect(stderr).toContain('withheld resource template "notes://by-date/{date}" (error: resource_template_changed)');
    expect(stderr).toContain('refused a request for withheld prompt "summarize" (prompt_changed, S8 poisoning)');
    expect(stderr).toContain('refused a read of withheld resource "notes://daily" (resource_changed)');
    expect(stderr).toContain(
      'refused a read of "notes://by-date/2024-05-01": it fits withheld resource template "notes://by-date/{date}" (resource_template_changed)',
    );
    expect(stderr).toContain('refused a read of withheld resource "notes://elsewhere" (not_listed)');
    // greet's answer carried TAG characters: removed, and counted.
    expect(stderr).toContain('removed hidden text from the answer to prompt "greet": 8 TAG characters (8 in all)');
    // The server's name for the new prompt never reaches the log raw.
    expect(stderr).not.toContain("\u202E");
    expect(stderr).not.toContain("\u001b[2J");
    expect(stderr).not.toContain("not pin");

    const events = readFileSync(audit, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; subject?: string; tool?: string; template?: string });
    expect(events).toContainEqual(expect.objectContaining({ event: "withheld", subject: "prompt", tool: "summarize" }));
    expect(events).toContainEqual(
      expect.objectContaining({ event: "call_refused", subject: "resource", tool: "notes://by-date/2024-05-01", template: "notes://by-date/{date}" }),
    );
  });

  it("withholds a prompt and a resource that change mid-session once the server's list_changed is judged, and passes each notice on", async () => {
    const { dir, lock, server } = await locked("plain", 2);
    const running = await connectProxy(["--lock", lock, "--", ...server], { cwd: dir });
    const { client } = running;
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["summarize", "greet"]);
    expect((await client.getPrompt({ name: "summarize", arguments: { note: "x" } })).messages).toHaveLength(1);
    let prompts = 0;
    let resources = 0;
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      prompts++;
    });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      resources++;
    });
    writeFileSync(join(dir, "pulled"), "");
    await waitFor(() => prompts > 0 && resources > 0);

    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
    await expect(client.getPrompt({ name: "summarize", arguments: { note: "x" } })).rejects.toThrow('mcp-lint withheld the prompt "summarize"');
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(["notes://archive"]);
    await expect(client.readResource({ uri: "notes://daily" })).rejects.toThrow('mcp-lint withheld the resource "notes://daily"');
    expect(await running.close()).toBe(0);
    expect(gets(dir)).toEqual(["summarize"]);
    expect(reads(dir)).toEqual([]);
    expect(running.stderr()).toMatch(
      /compared the server with the lock \(list_changed\): 1 tool listed, 1 served, 0 withheld, \d+ changes; 3 prompts listed, 1 served, 2 withheld/,
    );
  });
});

describe("proxy --lock with a v1 lock: prompts and resources are not pinned", () => {
  it("passes the changed prompts and resources as the server sends them and says once that they are not pinned", async () => {
    const { dir, lock, server } = await locked("plain", 1);
    writeFileSync(join(dir, "pulled"), "");
    const running = await connectProxy(["--lock", lock, "--", ...server], { cwd: dir });
    const { client } = running;
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["summarize", "greet", NEW_PROMPT]);
    expect((await client.listResources()).resources[0]?.description).toBe("Today's notes, newest first.");
    expect((await client.getPrompt({ name: "summarize", arguments: { note: "x" } })).messages).toHaveLength(1);
    expect((await client.readResource({ uri: "notes://by-date/2024-05-01" })).contents[0]).toMatchObject({ text: "Notes of 2024-05-01." });
    expect(await running.close()).toBe(0);
    expect(gets(dir)).toEqual(["summarize"]);
    const stderr = running.stderr();
    const notice =
      "mcp-lint proxy: the lock does not pin this server's prompts, resources and resource templates " +
      "(a version 1 lock pins tools and instructions only; a lock written with --server NAME pins them too); they pass as the server sends them";
    expect(stderr).toContain(notice);
    expect(stderr.split(notice)).toHaveLength(2);
    expect(stderr).toContain("compared the server with the lock (initialize): 1 tool listed, 1 served, 0 withheld, 0 changes; instructions as sent");
  });
});

describe("proxy --lock against a catalog server that tries to slip past it", () => {
  it("a prompt listed unchanged whose prompts/get returns poisoned messages is logged, and withheld under --results strict", async () => {
    const { dir, lock, server } = await locked("poisoned-get", 2);
    const clean = await connectProxy(["--lock", lock, "--", ...server], { cwd: dir });
    expect((await clean.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["summarize", "greet"]);
    const passed = await clean.client.getPrompt({ name: "greet" });
    expect(JSON.stringify(passed)).toContain("id_rsa");
    expect(await clean.close()).toBe(0);
    expect(clean.stderr()).toContain(
      'mcp-lint proxy: warning: the answer to prompt "greet" reads as tool poisoning (S8): contains tool poisoning: a secret to read',
    );
    expect(clean.stderr()).toContain("passed it on (--results strict would withhold it)");

    const strict = await connectProxy(["--lock", lock, "--results", "strict", "--", ...server], { cwd: dir });
    const refused = strict.client.getPrompt({ name: "greet" });
    await expect(refused).rejects.toThrow(
      'mcp-lint withheld the answer to the prompt "greet": it reads as an instruction to the model that steers it against the user',
    );
    await expect(refused).rejects.not.toThrow("id_rsa");
    const read = strict.client.readResource({ uri: "notes://archive" });
    await expect(read).rejects.toThrow('mcp-lint withheld the contents of the resource "notes://archive"');
    expect(await strict.close()).toBe(0);
    expect(strict.stderr()).toContain('warning: the answer to prompt "greet" reads as tool poisoning (S8)');
    expect(strict.stderr()).toContain("withheld it (--results strict)");
    expect(strict.stderr()).toContain('warning: the contents of resource "notes://archive" reads as tool poisoning (S8)');
  });

  it("a withheld resource asked for in another spelling (case, escapes, slashes, dot segments, fragment) is refused before the server", async () => {
    const { dir, lock, server } = await locked("case-router", 2);
    writeFileSync(join(dir, "pulled"), "");
    const running = await connectProxy(["--lock", lock, "--", ...server], { cwd: dir });
    const spellings = [
      "notes://daily",
      "notes://DAILY",
      "NOTES://Daily",
      "notes://dai%6Cy",
      "notes://dai%256Cy",
      "notes://daily/",
      "notes:///daily",
      "notes://daily#top",
      "notes://archive/../daily",
      "notes://./daily",
      "notes://da\u200Bily",
      "notes://ｄａｉｌｙ",
    ];
    for (const uri of spellings) {
      await expect(running.client.readResource({ uri }), uri).rejects.toThrow(/mcp-lint withheld the resource "notes:\/\/daily"|the server lists no resource/);
    }
    // A withheld template in another spelling is refused too.
    await expect(running.client.readResource({ uri: "NOTES://By-Date/2024-05-01" })).rejects.toThrow("withheld");
    expect(await running.close()).toBe(0);
    expect(reads(dir)).toEqual([]);
  });

  it("a storm of list_changed while the catalog changes: the client gets a few notices, and the changed prompt is withheld after it", async () => {
    const { dir, lock, server } = await locked("storm", 2);
    const running = await connectProxy(["--lock", lock, "--", ...server], { cwd: dir });
    const { client } = running;
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["summarize", "greet"]);
    let notices = 0;
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      notices++;
    });
    writeFileSync(join(dir, "pulled"), "");
    await waitFor(() => notices > 0);
    // Asked at once: held until the storm's reads are judged, then refused.
    await expect(client.getPrompt({ name: "summarize", arguments: { note: "x" } })).rejects.toThrow('mcp-lint withheld the prompt "summarize"');
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
    expect(await running.close()).toBe(0);
    expect(gets(dir)).toEqual([]);
    // 200 notices of each kind came in; far fewer went out, and each was sent after a judged read.
    expect(notices).toBeLessThan(50);
    const reread = running.stderr().split("compared the server with the lock (list_changed)").length - 1;
    expect(reread).toBeGreaterThan(0);
    expect(reread).toBeLessThan(200);
  });
});
