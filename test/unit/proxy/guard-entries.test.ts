// The guard's decision on prompts, resources and resource templates (a v2 lock's sections), and on
// whether a resources/read may reach the server.
import { describe, expect, it } from "vitest";
import { buildLockfile, LOCKFILE_VERSION_SERVERS } from "../../../src/lock/format.js";
import type { JsonObject, ServerSnapshot } from "../../../src/lock/snapshot.js";
import { judge, judgeRead, pinnedSections, unpinnedSections, withheldCallText } from "../../../src/proxy/guard.js";

const tool: JsonObject = { name: "summarize", description: "Summarize a text.", inputSchema: { type: "object" } };
const summarize: JsonObject = { name: "summarize", description: "Summarize a note.", arguments: [{ name: "note", description: "The note", required: true }] };
const greet: JsonObject = { name: "greet", description: "Greet the user." };
const daily: JsonObject = { uri: "notes://daily", name: "daily", description: "Today's notes." };
const archive: JsonObject = { uri: "notes://archive", name: "archive", description: "Older notes." };
const byDate: JsonObject = { uriTemplate: "notes://by-date/{date}", name: "by-date", description: "The notes of one day." };
const byTag: JsonObject = { uriTemplate: "notes://tag/{tag}", name: "by-tag", description: "The notes with one tag." };

function snapshot(catalog: { prompts?: JsonObject[]; resources?: JsonObject[]; resourceTemplates?: JsonObject[] }): ServerSnapshot {
  return { tools: [tool], instructions: { known: true, text: null }, name: "s", version: "1", commandSha256: null, transport: "stdio", ...catalog };
}

const honest = snapshot({ prompts: [summarize, greet], resources: [daily, archive], resourceTemplates: [byDate, byTag] });
const v2 = buildLockfile(honest, null, LOCKFILE_VERSION_SERVERS);
const v1 = buildLockfile(honest, null);
const keys = (entries: readonly JsonObject[] | undefined, key: string) => (entries ?? []).map((entry) => entry[key]);

describe("judge: prompts, resources and templates under a v2 lock", () => {
  it("serves everything unchanged", () => {
    const verdict = judge(v2, honest, "warning");
    expect(keys(verdict.entries.prompts?.served, "name")).toEqual(["summarize", "greet"]);
    expect(keys(verdict.entries.resources?.served, "uri")).toEqual(["notes://daily", "notes://archive"]);
    expect(keys(verdict.entries.resourceTemplates?.served, "uriTemplate")).toEqual(["notes://by-date/{date}", "notes://tag/{tag}"]);
    expect(verdict.changes).toEqual([]);
  });

  it("withholds a changed and a new prompt, a changed resource and a changed template, each with its kinds", () => {
    const changed = snapshot({
      prompts: [{ ...summarize, description: "Summarize a note briefly." }, greet, { name: "helper", description: "Helps." }],
      resources: [{ ...daily, description: "Today's notes, newest first." }, archive],
      resourceTemplates: [{ ...byDate, description: "One day." }, byTag],
    });
    const verdict = judge(v2, changed, "warning");
    expect(keys(verdict.entries.prompts?.served, "name")).toEqual(["greet"]);
    expect(verdict.entries.prompts?.withheld.get("summarize")).toEqual({
      tool: "summarize",
      subject: "prompt",
      reasons: ["changed"],
      kinds: ["prompt_changed"],
      severity: "error",
    });
    expect(verdict.entries.prompts?.withheld.get("helper")).toMatchObject({ subject: "prompt", reasons: ["not_in_lock"], kinds: ["prompt_added"] });
    expect(verdict.entries.resources?.withheld.get("notes://daily")).toMatchObject({ subject: "resource", kinds: ["resource_changed"] });
    expect(verdict.entries.resourceTemplates?.withheld.get("notes://by-date/{date}")).toMatchObject({
      subject: "resource template",
      kinds: ["resource_template_changed"],
    });
    // Tools are judged apart: a prompt named like a tool withholds no tool.
    expect(verdict.withheld.size).toBe(0);
    expect(verdict.tools.map((served) => served.name)).toEqual(["summarize"]);
  });

  it("applies --fail-on to a warning-level change, never to a new prompt", () => {
    const changed = snapshot({
      prompts: [{ ...summarize, arguments: [{ name: "note", description: "The note", required: false }] }, greet, { name: "helper" }],
    });
    expect(judge(v2, changed, "warning").entries.prompts?.withheld.has("summarize")).toBe(true);
    const lenient = judge(v2, changed, "error");
    expect(lenient.entries.prompts?.withheld.has("summarize")).toBe(false);
    expect(lenient.entries.prompts?.withheld.has("helper")).toBe(true);
  });

  it("withholds an entry with error-level hidden text (S8) even when the lock holds it", () => {
    const hidden = { ...greet, description: "Greet the user.\u{E0041}\u{E0042}" };
    const catalog = snapshot({ prompts: [summarize, hidden], resources: [daily], resourceTemplates: [byDate] });
    const locked = buildLockfile(catalog, null, LOCKFILE_VERSION_SERVERS);
    const verdict = judge(locked, catalog, "warning");
    expect(verdict.changes).toEqual([]);
    expect(verdict.entries.prompts?.withheld.get("greet")).toMatchObject({ reasons: ["hidden_text"], kinds: ["S8 tag"] });
  });

  it("serves nothing of a pinned section the server no longer offers, and reports no change for it", () => {
    const verdict = judge(v2, snapshot({}), "warning");
    expect(verdict.entries.prompts?.served).toEqual([]);
    expect(verdict.entries.prompts?.listed).toBe(0);
    expect(verdict.changes).toEqual([]);
  });

  it("does not judge what a v1 lock does not pin", () => {
    const changed = snapshot({ prompts: [{ name: "new" }], resources: [{ uri: "x://new" }], resourceTemplates: [] });
    const old = judge(v1, changed, "warning");
    expect(pinnedSections(v1)).toEqual([]);
    expect(old.entries).toEqual({ prompts: null, resources: null, resourceTemplates: null });
    expect(old.changes).toEqual([]);
  });

  // A v2 lock taken while the server offered no prompts pins that it had none: one it offers later
  // is new, as lock --check reports it (prompt_added), not a section that passes unjudged.
  it("withholds what a v2 lock taken without the section never approved", () => {
    const changed = snapshot({ prompts: [{ name: "new" }], resources: [{ uri: "x://new" }], resourceTemplates: [] });
    const toolsOnly = buildLockfile(snapshot({}), null, LOCKFILE_VERSION_SERVERS);
    expect(pinnedSections(toolsOnly)).toEqual(["prompts", "resources", "resourceTemplates"]);
    const verdict = judge(toolsOnly, changed, "warning");
    expect(verdict.entries.prompts?.served).toEqual([]);
    expect([...(verdict.entries.prompts?.withheld.keys() ?? [])]).toEqual(["new"]);
    expect([...(verdict.entries.resources?.withheld.keys() ?? [])]).toEqual(["x://new"]);
    expect(verdict.changes.map((change) => change.kind).sort()).toEqual(["prompt_added", "resource_added"]);
  });

  it("names the sections a server offers that the lock does not pin", () => {
    const capabilities = { prompts: {}, resources: { subscribe: true }, tools: {} };
    expect(unpinnedSections(v1, capabilities)).toEqual(["prompts", "resources", "resourceTemplates"]);
    expect(unpinnedSections(v2, capabilities)).toEqual([]);
    expect(unpinnedSections(v1, { tools: {} })).toEqual([]);
    const promptsOnly = buildLockfile(snapshot({ prompts: [greet] }), null, LOCKFILE_VERSION_SERVERS);
    expect(unpinnedSections(promptsOnly, capabilities)).toEqual([]);
  });

  it("words a prompt's refusal like a tool's, with no command to run", () => {
    const text = withheldCallText({ tool: "summarize", subject: "prompt", reasons: ["not_in_lock"], kinds: ["prompt_added"], severity: "error" });
    expect(text).toBe(
      'mcp-lint withheld the prompt "summarize": it is a new prompt that was never approved (prompt_added). ' +
        "The request was not sent to the server. The user must review the change before this prompt can be used; until then, do not try to get around this refusal.",
    );
  });
});

describe("judgeRead", () => {
  const changed = snapshot({
    prompts: [summarize, greet],
    resources: [{ ...daily, description: "Changed." }, archive],
    resourceTemplates: [{ ...byDate, description: "Changed." }, byTag],
  });
  const entries = judge(v2, changed, "warning").entries;

  it("reads a listed, served resource and a URI that fits a served template", () => {
    expect(judgeRead(entries, "notes://archive")).toEqual({ allowed: true });
    expect(judgeRead(entries, "notes://tag/work")).toEqual({ allowed: true });
  });

  it("refuses a withheld resource in any spelling a lax server may read as it", () => {
    for (const uri of ["notes://daily", "NOTES://DAILY", "notes://dai%6cy", "notes://daily/", "notes://x/../daily", "notes://daily#a", "notes:\\\\daily"]) {
      expect(judgeRead(entries, uri), uri).toMatchObject({ allowed: false, withheld: { tool: "notes://daily" } });
    }
  });

  it("refuses a URI that fits a withheld template, even when a served template fits it too", () => {
    expect(judgeRead(entries, "notes://by-date/2024-05-01")).toMatchObject({ allowed: false, withheld: { tool: "notes://by-date/{date}" } });
    expect(judgeRead(entries, "Notes://BY-DATE/2024")).toMatchObject({ allowed: false });
    const broad = judge(
      buildLockfile(snapshot({ resources: [], resourceTemplates: [byDate, { uriTemplate: "notes://{+path}" }] }), null, LOCKFILE_VERSION_SERVERS),
      snapshot({ resources: [], resourceTemplates: [{ ...byDate, description: "Changed." }, { uriTemplate: "notes://{+path}" }] }),
      "warning",
    ).entries;
    expect(judgeRead(broad, "notes://anything/else")).toEqual({ allowed: true });
    expect(judgeRead(broad, "notes://by-date/1")).toMatchObject({ allowed: false });
  });

  it("refuses a URI that is neither listed nor fits an approved template", () => {
    expect(judgeRead(entries, "notes://elsewhere")).toEqual({ allowed: false, withheld: null });
    expect(judgeRead(entries, "notes://tag/")).toEqual({ allowed: false, withheld: null });
  });

  it("takes a withheld template too long to match as fitting: a refusal, never a way around one", () => {
    const long = `notes://${"a".repeat(5000)}/{x}`;
    const verdict = judge(
      buildLockfile(snapshot({ resources: [], resourceTemplates: [{ uriTemplate: long, description: "A." }, byTag] }), null, LOCKFILE_VERSION_SERVERS),
      snapshot({ resources: [], resourceTemplates: [{ uriTemplate: long, description: "B." }, byTag] }),
      "warning",
    ).entries;
    expect(judgeRead(verdict, "notes://tag/work")).toMatchObject({ allowed: false });
  });

  it("lets every read pass when neither section is pinned", () => {
    expect(judgeRead(judge(v1, changed, "warning").entries, "notes://daily")).toEqual({ allowed: true });
  });
});
