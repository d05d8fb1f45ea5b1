// Issue 37 item 5: two tools whose names share their first 120 characters are told apart in every
// report line; names past any valid length keep their end and a digest, so they differ too.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./helpers.js";

const shared = "n".repeat(120);
const first = `${shared}_alpha`;
const second = `${shared}_bravo`;

function list(description: string, names: readonly string[]) {
  return { tools: names.map((name) => ({ name, description, inputSchema: { type: "object", properties: {} } })) };
}

describe("names are never shown alike", () => {
  it("two 126-character names sharing 120 characters: lock --check and run name each whole", async () => {
    const dir = tempDir();
    const from = join(dir, "tools.json");
    writeFileSync(from, JSON.stringify(list("Returns rows.", [first, second])));
    expect((await runCli(["lock", "--from", from], { cwd: dir })).code).toBe(0);
    writeFileSync(from, JSON.stringify(list("Returns rows of the table.", [first, second])));
    const check = await runCli(["lock", "--check", "--from", from], { cwd: dir });
    expect(check.stdout).toContain(first);
    expect(check.stdout).toContain(second);
    const run = await runCli(["check", from], { cwd: dir });
    expect(run.stdout).toContain(first);
    expect(run.stdout).toContain(second);
  });

  it("names past the valid length differ on screen when they differ anywhere", async () => {
    const dir = tempDir();
    const long = (mark: string) => `${"m".repeat(150)}${mark}${"m".repeat(150)}`;
    const from = join(dir, "tools.json");
    writeFileSync(from, JSON.stringify(list("Returns rows.", [long("X"), long("Y")])));
    const run = await runCli(["check", from], { cwd: dir });
    const shown = run.stdout.split("\n").filter((line) => line.includes("301 characters, #"));
    expect(shown.length).toBeGreaterThanOrEqual(2);
    expect(new Set(shown.map((line) => line.trim())).size).toBe(shown.length);
  });
});
