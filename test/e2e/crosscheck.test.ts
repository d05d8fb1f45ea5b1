// crosscheck end to end with the real clients from the npm registry (test/clients, pinned), against
// fixture servers over stdio and Streamable HTTP on 127.0.0.1. Every client's model endpoint is
// mcp-lint's loopback recorder; nothing leaves the machine. What each client shows its model of the
// fixture's known conversions is pinned per client.
import { beforeAll, describe, expect, it } from "vitest";
import { booleanProperty, catalog, conversions, crosscheck, lines, prepareClients, runnable, runs } from "./crosscheck-clients.js";

beforeAll(() => prepareClients(), 600_000);

describe("crosscheck with real clients: the conversions fixture over stdio", () => {
  let run: Awaited<ReturnType<typeof crosscheck>>;
  beforeAll(async () => {
    run = await crosscheck(["--", "node", catalog, conversions]);
  }, 300_000);

  it("compares every client that can run, and exits as run does (1 only for errors)", () => {
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const compared = (run.report?.clients ?? []).filter((client) => client.status === "compared").map((client) => client.id);
    expect(compared.sort()).toEqual([...runnable].sort());
    const errors = run.report?.counts.error ?? -1;
    expect(run.code).toBe(errors > 0 ? 1 : 0);
  });

  it("Claude Code: flattens the root oneOf into properties and says so in the description; shows no outputSchema", () => {
    if (!runs("claude-code")) return;
    const client = run.client("claude-code");
    expect(client?.shown).toBe(5);
    expect(lines(client)).toEqual([
      expect.stringMatching(/^render-description-rewritten set_reminder \/description added:[0-9a-f]{16}$/),
      "render-branches-ignored set_reminder /inputSchema oneOf",
      "render-output-lost get_forecast /outputSchema not-shown",
    ]);
    expect(client?.findings[0]?.message).toContain(
      'adds text to the description: "Input constraint: Provide parameters for exactly one of: (at) or (after_minutes)',
    );
  });

  it("Codex: drops lengths, pattern, bounds and format; keeps enum, nested objects, required and the oneOf", () => {
    if (!runs("codex")) return;
    const client = run.client("codex");
    expect(client?.shown).toBe(5);
    expect(lines(client)).toEqual([
      "render-constraint-dropped search_notes /inputSchema/properties/query minLength",
      "render-constraint-dropped search_notes /inputSchema/properties/query maxLength",
      "render-constraint-dropped search_notes /inputSchema/properties/query pattern",
      "render-constraint-dropped search_notes /inputSchema/properties/limit minimum",
      "render-constraint-dropped search_notes /inputSchema/properties/limit maximum",
      "render-constraint-dropped search_notes /inputSchema/properties/since format",
      "render-constraint-dropped search_notes /inputSchema/properties/filter/properties/author/properties/email format",
      "render-constraint-dropped set_reminder /inputSchema/oneOf/0/properties/at format",
      "render-constraint-dropped set_reminder /inputSchema/oneOf/1/properties/after_minutes exclusiveMinimum",
      "render-constraint-dropped get_forecast /inputSchema/properties/days minimum",
      "render-constraint-dropped get_forecast /inputSchema/properties/days maximum",
      "render-output-lost get_forecast /outputSchema not-shown",
    ]);
  });

  it("Gemini CLI: the findings pinned for 0.61.0", () => {
    if (!runs("gemini-cli")) return;
    const client = run.client("gemini-cli");
    expect(client?.shown).toBe(5);
    expect(lines(client)).toEqual(GEMINI_CONVERSIONS);
  });

  it("MCP Inspector: shows tools/list verbatim, so no differences", () => {
    if (!runs("inspector")) return;
    const client = run.client("inspector");
    expect(client?.shown).toBe(5);
    expect(lines(client)).toEqual([]);
  });

  it("prints one block per client and a summary", () => {
    const blocks = run.stdout.match(/^(Claude Code|Codex|Gemini CLI|MCP Inspector) [0-9.]+: 5 of 5 tools shown/gm) ?? [];
    expect(blocks.length).toBe(runnable.length);
    expect(run.stdout).toMatch(/^summary: /m);
  });
});

// Gemini CLI 0.61.0 sends every schema as served (plus an optional `wait_for_previous` of its own,
// which takes nothing away) and no outputSchema.
const GEMINI_CONVERSIONS: string[] = ["render-output-lost get_forecast /outputSchema not-shown"];

describe("crosscheck with real clients: a boolean property schema", () => {
  it("Codex turns `true` (any value) into a string; the others keep it; the ground truth notes SDK 1.x clients", async () => {
    const run = await crosscheck(["--", "node", catalog, booleanProperty]);
    expect(run.report).not.toBeNull();
    if (runs("codex")) expect(lines(run.client("codex"))).toEqual(["render-type-changed store_value /inputSchema/properties/value any->string"]);
    if (runs("claude-code")) expect(lines(run.client("claude-code"))).toEqual([]);
    if (runs("inspector")) expect(lines(run.client("inspector"))).toEqual([]);
    // Its MCP SDK rejects the whole tools/list, yet it still asks its model: without any of them.
    if (runs("gemini-cli")) expect(lines(run.client("gemini-cli"))).toEqual(["render-tools-absent - - none"]);
    expect(run.stdout).toContain("[client-sdk1-rejects]");
    expect(run.code).toBe(runs("codex") || runs("gemini-cli") ? 1 : 0);
  }, 300_000);
});
