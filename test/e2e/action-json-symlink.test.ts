// Issue 9, item 8 (the Action's part): the `json` input wrote through a symlink committed to the
// repository, so a pull request could make the job overwrite any file the runner's user can write.
// A `json` path that is a symlink, goes through one or leads outside the workspace is refused (exit 2,
// one message) before the server starts; a good path is written without following symlinks.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { annotations, fixtureCommand, runAction } from "./action-harness.js";
import { cliPath, tempDir } from "./helpers.js";

describe("the json input and symlinks (issue 9 item 8)", () => {
  let workspace: string;
  let outside: string;
  let command: string;
  beforeAll(() => {
    workspace = tempDir();
    outside = tempDir();
    writeFileSync(join(outside, "victim.txt"), "precious\n");
    command = fixtureCommand(workspace, "server", { tools: [{ name: "t", description: "plain", inputSchema: { type: "object" } }] });
    const made = spawnSync("bash", ["-c", `node "${cliPath}" lock -- ${command}`], { cwd: workspace, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    // What a pull request can commit: a file symlink, a folder symlink, a link inside a real folder.
    symlinkSync(join(outside, "victim.txt"), join(workspace, "report.json"));
    symlinkSync(outside, join(workspace, "reports"));
    mkdirSync(join(workspace, "real"));
    symlinkSync(outside, join(workspace, "real", "deeper"));
  });

  const refused: { json: string; says: string }[] = [
    { json: "report.json", says: 'The json input "report.json" goes through a symlink (report.json)' },
    { json: "reports/new.json", says: 'The json input "reports/new.json" goes through a symlink (reports)' },
    { json: "reports/victim.txt", says: "goes through a symlink (reports)" },
    { json: "real/deeper/x.json", says: "goes through a symlink (real/deeper)" },
    { json: "../escape.json", says: 'The json input "../escape.json" is outside the workspace' },
    { json: "/tmp/absolute.json", says: "is outside the workspace" },
  ];

  for (const { json, says } of refused) {
    it(`refuses json: ${json} before starting the server`, () => {
      const result = runAction({ command, json }, {}, workspace);
      expect(result.status).toBe(2);
      const shown = annotations(result.runner);
      expect(shown).toHaveLength(1);
      expect(shown[0]?.command).toBe("error");
      expect(shown[0]?.data).toContain(says);
      // Refused up front: mcp-lint never ran (no stop-commands), nothing was written outside.
      expect(result.runner.commands.some((entry) => entry.command === "stop-commands")).toBe(false);
      expect(readFileSync(join(outside, "victim.txt"), "utf8")).toBe("precious\n");
      expect(readdirSync(outside).sort()).toEqual(["victim.txt"]);
      expect(result.outputs).toBe("exit-code=2\n");
      expect(readdirSync(result.runnerTemp)).toEqual([]);
    });
  }

  it("writes a path inside the workspace, making missing folders, and replaces an existing file", () => {
    const first = runAction({ command, json: "out/mcp/report.json" }, {}, workspace);
    expect(first.status, first.stdout).toBe(0);
    const written = join(workspace, "out", "mcp", "report.json");
    expect(JSON.parse(readFileSync(written, "utf8")).exit_code).toBe(0);
    writeFileSync(written, "old");
    expect(runAction({ command, json: "out/mcp/report.json" }, {}, workspace).status).toBe(0);
    expect(JSON.parse(readFileSync(written, "utf8")).exit_code).toBe(0);
    expect(readdirSync(join(workspace, "out", "mcp"))).toEqual(["report.json"]);
    expect(existsSync(join(outside, "report.json"))).toBe(false);
  });
});
