// Issue 9, item 7: fail-closed reporting. A 2 MB tool name used to overflow the Action's spawnSync
// buffer, and a run without a report read as "No changes." Now mcp-lint's output is streamed (only
// a bounded tail is kept for the summary), and an exit 0 or 1 without a usable JSON report fails
// the step as an error (exit 2, an error annotation, a summary that says the report is missing).
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { annotations, fakeAction, fixtureCommand, runAction } from "./action-harness.js";
import { cliPath, tempDir } from "./helpers.js";

describe("a 2 MB tool name through the real CLI", () => {
  it("is streamed, reported and capped instead of killing the run", () => {
    const workspace = tempDir();
    const clean = fixtureCommand(workspace, "clean", { tools: [{ name: "t", description: "plain", inputSchema: { type: "object" } }] });
    const made = spawnSync("bash", ["-c", `node "${cliPath}" lock -- ${clean}`], { cwd: workspace, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    const huge = "n".repeat(2 * 1024 * 1024);
    const command = fixtureCommand(workspace, "huge", {
      tools: [
        { name: "t", description: "plain", inputSchema: { type: "object" } },
        { name: huge, description: "a tool with a 2 MB name", inputSchema: { type: "object" } },
      ],
    });
    const result = runAction({ command, json: "report.json" }, {}, workspace);
    expect(result.status, result.stdout.slice(-2000)).toBe(1);
    expect(result.summary).toContain("Exit code: **1**");
    expect(result.summary).not.toContain("No changes.");
    expect(result.summary.length).toBeLessThan(200_000);
    const titles = annotations(result.runner).map((entry) => entry.properties.title ?? "");
    expect(titles.some((title) => title.startsWith("mcp-lint tool_added (nnnn") && title.length < 400)).toBe(true);
  }, 120_000);
});

// The fake CLI finds its --json path the way the real one is given it.
const JSON_PATH = 'const report = process.argv[process.argv.indexOf("--json") + 1];';

describe("a run without a usable report fails the step (exit 2)", () => {
  let workspace: string;
  beforeAll(() => {
    workspace = tempDir();
  });

  const cases: { name: string; cli: string; says: RegExp }[] = [
    { name: "exit 0 and no report", cli: "process.exitCode = 0;", says: /mcp-lint exited 0 but the JSON report is missing/ },
    {
      name: "exit 1 and a report that is not JSON",
      cli: `import { writeFileSync } from "node:fs"; ${JSON_PATH} writeFileSync(report, "{not json"); process.exitCode = 1;`,
      says: /mcp-lint exited 1 but the JSON report is unreadable/,
    },
    {
      name: "exit 0 and a report that says exit 1",
      cli: `import { writeFileSync } from "node:fs"; ${JSON_PATH} writeFileSync(report, JSON.stringify({ exit_code: 1, changes: [] })); process.exitCode = 0;`,
      says: /it says exit code 1 but mcp-lint exited 0/,
    },
    {
      name: "exit 0 and a report without a list of changes",
      cli: `import { writeFileSync } from "node:fs"; ${JSON_PATH} writeFileSync(report, JSON.stringify({ exit_code: 0 })); process.exitCode = 0;`,
      says: /it has no list of changes/,
    },
    { name: "killed by a signal", cli: 'process.kill(process.pid, "SIGKILL");', says: /mcp-lint was ended by SIGKILL/ },
    {
      name: "an EPIPE-style crash with a stack trace and exit 1",
      cli: 'console.log("partial report"); throw new Error("write EPIPE");',
      says: /mcp-lint exited 1 but the JSON report is missing/,
    },
  ];

  for (const { name, cli, says } of cases) {
    it(name, () => {
      const result = runAction({ command: "node server.mjs" }, {}, workspace, { actionPath: fakeAction(cli) });
      expect(result.status, result.stdout).toBe(2);
      expect(result.outputs).toBe("exit-code=2\n");
      const errors = annotations(result.runner).filter((entry) => entry.command === "error");
      expect(errors).toHaveLength(1);
      expect(errors[0]?.data).toMatch(says);
      expect(errors[0]?.data).toContain("The check cannot be trusted, so the step fails.");
      expect(result.summary).toContain("Exit code: **2** (error)");
      expect(result.summary).toContain("**No usable report:**");
      expect(result.summary).not.toContain("No changes.");
    });
  }

  it("a clean report after 8 MB of output passes, with only the output's tail in the summary", () => {
    const cli = `import { writeFileSync } from "node:fs"; ${JSON_PATH}
      const line = "x".repeat(1023) + "\\n";
      for (let i = 0; i < 8 * 1024; i++) process.stdout.write(line);
      process.stdout.write("the last line\\n");
      writeFileSync(report, JSON.stringify({ exit_code: 0, changes: [] }));`;
    const result = runAction({ command: "node server.mjs" }, {}, workspace, { actionPath: fakeAction(cli) });
    expect(result.status).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(result.summary).toContain("No changes.");
    expect(result.summary).toContain("Output (last 64 KB; the log has all of it)");
    expect(result.summary).toContain("the last line");
    expect(result.summary.length).toBeLessThan(70_000);
  }, 60_000);
});
