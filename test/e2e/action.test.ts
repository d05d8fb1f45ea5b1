// Runs action.yml's steps the way the GitHub runner does: expressions substituted, github.action_path
// set, each `run` step through bash with its env and working directory, GITHUB_STEP_SUMMARY and
// GITHUB_OUTPUT pointing at files. Uses the demo server, clean and rug-pulled.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cliPath, demoServer, repo, tempDir } from "./helpers.js";

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  "working-directory"?: string;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(repo, "action.yml"), "utf8")) as Action;

function runAction(inputs: Record<string, string>, jobEnv: Record<string, string>, workspace: string) {
  const values: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) values[name] = inputs[name] ?? spec.default ?? "";
  const expression = (text: string) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
      const input = /^inputs\.([\w-]+)$/.exec(expr);
      if (input?.[1] !== undefined) return values[input[1]] ?? "";
      if (expr === "github.action_path") return repo;
      throw new Error(`unexpected expression ${expr}`);
    });
  const summary = join(workspace, "summary.md");
  const outputFile = join(workspace, "output.txt");
  writeFileSync(summary, "");
  writeFileSync(outputFile, "");
  let stdout = "";
  let status = 0;
  for (const step of action.runs.steps) {
    if (step.if !== undefined) {
      const condition = /^inputs\.([\w-]+) == '([^']*)'$/.exec(step.if);
      if (!condition) throw new Error(`unexpected condition ${step.if}`);
      if (values[condition[1] as string] !== condition[2]) continue;
    }
    if (step.uses !== undefined) {
      // actions/setup-node: Node.js is already here.
      expect(step.uses).toMatch(/^actions\/setup-node@/);
      continue;
    }
    const env: NodeJS.ProcessEnv = { ...process.env, ...jobEnv, GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: outputFile, GITHUB_WORKSPACE: workspace };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expression(value);
    const scriptPath = join(workspace, `step-${step.id ?? "x"}.sh`);
    writeFileSync(scriptPath, expression(step.run ?? ""));
    expect(step.shell).toBe("bash");
    const dir = expression(step["working-directory"] ?? ".");
    const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", scriptPath], {
      cwd: isAbsolute(dir) ? dir : join(workspace, dir),
      env,
      encoding: "utf8",
    });
    stdout += result.stdout;
    status = result.status ?? 2;
    if (status !== 0) break;
  }
  return { status, stdout, summary: readFileSync(summary, "utf8"), outputs: readFileSync(outputFile, "utf8") };
}

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
    expect(result.stdout).not.toContain("::error");
  });

  it("fails on the rug-pulled server with one annotation per error and a summary table", () => {
    const result = runAction({ command, "pass-env": "MCP_LINT_DEMO_RUGPULL", json: "report.json" }, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("::error title=mcp-lint description_changed (get_weather)::description changed");
    expect(result.stdout).toContain("::error title=mcp-lint schema_widened (get_weather)::");
    expect(result.stdout).toContain("::error title=mcp-lint annotations_changed (send_note)::readOnlyHint");
    expect(result.summary).toContain("Exit code: **1** (failed: changes at or above `warning`)");
    expect(result.summary).toContain("| error | `annotations_changed` | `send_note` |");
    expect(result.outputs).toContain("exit-code=1");
    const report = JSON.parse(readFileSync(join(workspace, "report.json"), "utf8"));
    expect(report.summary.error).toBeGreaterThanOrEqual(4);
  });

  it("fail-on never lets the rug pull through but still annotates it", () => {
    const result = runAction({ command, "pass-env": "MCP_LINT_DEMO_RUGPULL", "fail-on": "never" }, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("::error title=mcp-lint description_changed");
  });

  it("rejects command and url together with a clear message", () => {
    const result = runAction({ command, url: "https://example.com/mcp" }, {}, workspace);
    expect(result.status).toBe(2);
    expect(result.stdout).toContain("::error title=mcp-lint::Set either the `command` input or the `url` input, not both.");
    expect(result.summary).toContain("Exit code: **2**");
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
