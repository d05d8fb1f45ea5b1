// Issue 37 item 4: how `lock --check` and a first lock show changes, on one before/after pair of a
// nine-tool server (test/fixtures/lock-report): every tool moves from draft-07 to draft 2020-12, one
// enum loses a value, one description changes white space only, one tool holds pointers past 128
// characters that differ only near their end.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cliPath, repo, runCli, tempDir } from "./helpers.js";

const fixtures = join(repo, "test/fixtures/lock-report");
const before = join(fixtures, "before.json");
const after = join(fixtures, "after.json");

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});

describe("a first lock of the pair's first half", () => {
  it("regression: two pointers past 128 characters that differ only near the end are listed apart, each with its start and its end", async () => {
    const dir = tempDir();
    const result = await runCli(["lock", "--from", before], { cwd: dir });
    expect(result.code).toBe(0);
    const listed = (property: string, suffix: string) => {
      const pointer = `/inputSchema/properties/parcels/anyOf/1/properties/contents/items/properties/${property}${suffix}`;
      expect(pointer.length).toBeGreaterThan(128);
      const line = result.stdout
        .split("\n")
        .find((item) => item.startsWith("    /inputSchema/properties/parcels/") && item.includes(`${property.slice(-20)}${suffix}: `));
      expect(line).toBeDefined();
      return (line as string).slice(4, (line as string).indexOf(": "));
    };
    const value = listed("shipping_address_line_for_the_recipient_of_this_parcel_value", "/description");
    const other = listed("shipping_address_line_for_the_recipient_of_this_parcel_other", "/description");
    expect(value).not.toBe(other);
    for (const shown of [value, other]) {
      expect(shown.length).toBeLessThanOrEqual(128);
      expect(shown.startsWith("/inputSchema/properties/parcels/anyOf/1/")).toBe(true);
      expect(shown).toContain("...");
    }
    expect(value.endsWith("_parcel_value/description")).toBe(true);
    expect(other.endsWith("_parcel_other/description")).toBe(true);
    // The cut is in the middle now, not a count at the end.
    expect(result.stdout).not.toContain("more characters)");
  });
});

describe("lock --check of the pair", () => {
  type Report = { changes: { kind: string; tool: string | null; severity: string; message: string }[] };
  async function check(): Promise<{ stdout: string; report: Report }> {
    const dir = tempDir();
    expect((await runCli(["lock", "--from", before], { cwd: dir })).code).toBe(0);
    const result = await runCli(["lock", "--check", "--from", after, "--json", "report.json"], { cwd: dir });
    expect(result.code).toBe(1);
    return { stdout: result.stdout, report: JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as Report };
  }

  it("groups the same info change on nine tools into one line naming them, with its diff once; JSON keeps one entry per tool", async () => {
    const { stdout, report } = await check();
    const line = "info    schema_changed         $schema URI changed at /inputSchema/$schema, but no keyword changes meaning";
    expect(stdout.split(line).length - 1).toBe(1);
    expect(stdout).toContain(
      "9 tools: archive_order, cancel_order, describe_order, list_orders, pick_colour, refund_order, ship_order, track_order, update_order\n",
    );
    expect(stdout).toContain(
      `\n  ${line}\n             ~ $.$schema: "http://json-schema.org/draft-07/schema#" -> "https://json-schema.org/draft/2020-12/schema"\n`,
    );
    // The overview merges the seven tools with nothing else changed into one row.
    expect(stdout).toContain(
      "  info     7 tools: archive_order, cancel_order, list_orders, refund_order, ship_order, track_order, update_order  schema_changed\n",
    );
    expect(stdout.trimEnd().split("\n").pop()).toBe("1 error, 1 warning, 10 info");
    const infos = report.changes.filter((item) => item.kind === "schema_changed" && item.severity === "info");
    expect(infos.map((item) => item.tool)).toHaveLength(9);
  });

  it("shows an enum that lost one value as one line, by value", async () => {
    const { stdout } = await check();
    expect(stdout).toContain('      ~ $.properties.colour.enum: lost value "orange"\n');
    expect(stdout).not.toMatch(/enum\[\d+\]/);
  });

  it("says a whitespace-only description edit in one line, in the terminal and in the JSON message", async () => {
    const { stdout, report } = await check();
    const words = "whitespace only, the same words in the same order (2 insertions, 2 replacements)";
    const block = stdout.slice(stdout.indexOf("\ndescribe_order\n"));
    expect(block.split("\n").slice(1, 4)).toEqual(["describe_order", `  error   description_changed    description changed: ${words}`, ""]);
    const change = report.changes.find((item) => item.kind === "description_changed");
    expect(change?.message).toBe(`description changed: ${words}`);
    // Still an error: the display changed, not the severity.
    expect(change?.severity).toBe("error");
  });
});
