// The Action as a workflow meets it (through action-harness.ts, which runs action.yml's steps the
// way the runner does), on the demo server, clean and rug-pulled.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { annotations, runAction } from "./action-harness.js";
import { cliPath, demoServer, repo, tempDir } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});

describe("action.yml", () => {
  const command = `node "${demoServer}"`;
  let workspace: string;
  beforeAll(() => {
    workspace = tempDir();
    const made = spawnSync(process.execPath, [cliPath, "lock", "--", "node", demoServer], { cwd: workspace, encoding: "utf8" });
    expect(made.status).toBe(0);
  });

  it("passes on the clean demo server and writes the summary and output", () => {
    const result = runAction({ command, "pass-env": "MCP_LINT_DEMO_RUGPULL" }, {}, workspace);
    expect(result.status).toBe(0);
    expect(result.summary).toContain("## mcp-lint lock --check");
    expect(result.summary).toContain("Exit code: **0** (passed)");
    expect(result.summary).toContain("No changes.");
    expect(result.outputs).toContain("exit-code=0");
    expect(annotations(result.runner)).toEqual([]);
    // The private plan folder (it briefly held pass-env values) is gone.
    expect(readdirSync(result.runnerTemp)).toEqual([]);
  });

  it("fails on the rug-pulled server with one annotation per error and a summary table", () => {
    const result = runAction({ command, "pass-env": "MCP_LINT_DEMO_RUGPULL", json: "report.json" }, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace);
    expect(result.status).toBe(1);
    const shown = annotations(result.runner);
    const titles = shown.map((annotation) => annotation.properties.title);
    expect(titles).toContain("mcp-lint description_changed (get_weather)");
    expect(titles).toContain("mcp-lint schema_widened (get_weather)");
    expect(shown.find((annotation) => annotation.properties.title === "mcp-lint annotations_changed (send_note)")?.data).toContain("readOnlyHint");
    expect(shown.every((annotation) => annotation.properties.file === "mcp-lint.lock")).toBe(true);
    // Changes are errors; the hidden text in the new description (S8) is annotated too: the zero-width
    // character as a warning, the key to read with the secrecy around it as one poisoning error.
    expect(shown.filter((annotation) => !annotation.properties.title?.startsWith("mcp-lint S8 ")).every((annotation) => annotation.command === "error")).toBe(
      true,
    );
    const hidden = shown.filter((annotation) => annotation.properties.title === "mcp-lint S8 hidden_text (get_weather)");
    expect(hidden.map((annotation) => annotation.command)).toEqual(["warning", "error"]);
    expect(hidden.map((annotation) => annotation.data).join("\n")).toContain("IMPOR\\u{200B}TANT");
    expect(result.summary).toContain("| error | S8 hidden\\_text | get\\_weather | Contains tool poisoning\\: a secret to read");
    expect(result.summary).toContain("Exit code: **1** (failed: changes at or above `warning`)");
    expect(result.summary).toContain("| error | annotations\\_changed | send\\_note |");
    expect(result.outputs).toContain("exit-code=1");
    expect(readdirSync(result.runnerTemp)).toEqual([]);
    const report = JSON.parse(readFileSync(join(workspace, "report.json"), "utf8"));
    expect(report.summary.error).toBeGreaterThanOrEqual(4);
  });

  it("fail-on never lets the rug pull through but still annotates it", () => {
    const result = runAction({ command, "pass-env": "MCP_LINT_DEMO_RUGPULL", "fail-on": "never" }, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace);
    expect(result.status).toBe(0);
    expect(annotations(result.runner).map((annotation) => annotation.properties.title)).toContain("mcp-lint description_changed (get_weather)");
  });

  it("rejects command and url together with a clear message", () => {
    const result = runAction({ command, url: "https://example.com/mcp" }, {}, workspace);
    expect(result.status).toBe(2);
    expect(annotations(result.runner)).toEqual([
      { command: "error", properties: { title: "mcp-lint" }, data: "Set one of the `command`, `url` and `config` inputs: `command` and `url` are both set." },
    ]);
    expect(result.summary).toContain("Exit code: **2**");
  });

  it("on an mcp-lint error, annotates its one-line message and says so in the summary", () => {
    const result = runAction({ command, lock: "missing.lock" }, {}, workspace);
    expect(result.status).toBe(2);
    const shown = annotations(result.runner);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.properties).toEqual({ file: "missing.lock", title: "mcp-lint" });
    expect(shown[0]?.data).toMatch(/^mcp-lint: .*missing\.lock/);
    expect(result.summary).toContain("No report: mcp-lint stopped on an error: mcp\\-lint\\: ");
    expect(result.outputs).toBe("exit-code=2\n");
  });

  it("refuses a command with a shell variable instead of running it half-expanded", () => {
    const result = runAction({ command: "npx -y $PKG" }, {}, workspace);
    expect(result.status).toBe(2);
    expect(result.stdout).toContain("no pipes, redirections, globs or variables");
  });
});

describe("mcp-lint.lock.example", () => {
  it("is exactly what lock writes for the bundled demo server today", () => {
    const out = join(tempDir(), "fresh.lock");
    const made = spawnSync(process.execPath, [cliPath, "lock", "--lock", out, "--", "node", "examples/demo-server.mjs"], { cwd: repo, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(join(repo, "mcp-lint.lock.example"), "utf8"));
  });
});
