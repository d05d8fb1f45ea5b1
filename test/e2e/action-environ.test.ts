// Issue 9, item 11 (the Action's part): a stdio server runs as the job's user and can read
// /proc/<pid>/environ of the processes above it. The Action starts mcp-lint with only the variables
// it needs plus those named by header-env and pass-env, and replaces its own shell with an empty
// environment, so neither the server's parent (mcp-lint) nor its grandparent (the Action) holds the
// job's other secrets. The fixture server reads both and puts what it finds in a tool description,
// which the JSON report shows in full (`after` of description_changed). In mcp-lint's PID namespace
// the server sees neither ancestor at all; the environment rule is what guards a machine without
// one, so that case runs with a PATH that has no unshare.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureCommand, runAction } from "./action-harness.js";
import { cliPath, pathWithout, tempDir } from "./helpers.js";

const SECRET = "sk_live_do_not_leak_4f1b2c3d";
const PASSED = "passed_on_purpose_9e8d7c6b";

/** The description the probe server reported, from a JSON report. */
function probed(report: string): string {
  const changes = JSON.parse(report).changes as { kind: string; tool: string | null; after?: unknown }[];
  const change = changes.find((entry) => entry.tool === "environ" && entry.kind === "description_changed");
  expect(change, report.slice(0, 2000)).toBeDefined();
  return String(change?.after);
}

describe.skipIf(process.platform !== "linux")("the job's environment and the server (issue 9 item 11)", () => {
  let workspace: string;
  let command: string;
  beforeAll(() => {
    workspace = tempDir();
    const baseline = fixtureCommand(workspace, "baseline", { tools: [{ name: "environ", description: "none", inputSchema: { type: "object" } }] });
    const made = spawnSync("bash", ["-c", `node "${cliPath}" lock -- ${baseline}`], { cwd: workspace, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    command = fixtureCommand(workspace, "probe", { probeEnviron: true });
  });

  it("the probe works: run directly with the whole environment, mcp-lint's environ shows the secret", () => {
    const direct = spawnSync("bash", ["-c", `node "${cliPath}" lock --check --json direct.json --no-pid-namespace -- ${command}`], {
      cwd: workspace,
      encoding: "utf8",
      env: { ...process.env, SECRET_NOT_PASSED: SECRET },
    });
    expect(direct.status, direct.stderr).toBe(1);
    expect(probed(readFileSync(join(workspace, "direct.json"), "utf8"))).toContain(`SECRET_NOT_PASSED=${SECRET}`);
  });

  it("run by the Action without a PID namespace, neither the parent's nor the grandparent's environ holds a variable that was not passed", () => {
    const result = runAction(
      { command, "pass-env": "SERVER_TOKEN", json: "report.json" },
      { SECRET_NOT_PASSED: SECRET, SERVER_TOKEN: PASSED, LANG: "C.UTF-8", PATH: pathWithout(["unshare"]) },
      workspace,
    );
    expect(result.status, result.stdout).toBe(1);
    const report = readFileSync(join(workspace, "report.json"), "utf8");
    const seen = probed(report);
    // Both ancestors were read: mcp-lint's environment has the basics and the passed variable
    // (its value redacted by mcp-lint); the Action's own is empty.
    const parent = /parent \d+: (.*?) \|\| grandparent \d+: (.*)$/.exec(seen);
    expect(parent, seen).not.toBeNull();
    const names = (parent?.[1] ?? "").split(" ; ").map((entry) => entry.slice(0, entry.indexOf("=")));
    expect(names).toEqual(expect.arrayContaining(["PATH", "HOME", "LANG", "SERVER_TOKEN"]));
    for (const name of names) expect(name).not.toMatch(/^(SECRET_NOT_PASSED|GITHUB_|INPUT_|MCP_LINT_ACTION_PATH$)/);
    expect(parent?.[2]).toBe("");
    for (const [where, text] of Object.entries({ stdout: result.stdout, summary: result.summary, report })) {
      expect(text.includes(SECRET), where).toBe(false);
    }
  });

  it("run by the Action in mcp-lint's PID namespace, the server sees no ancestor at all (issue 19 item 6)", () => {
    const result = runAction(
      { command, "pass-env": "SERVER_TOKEN", json: "report.json" },
      { SECRET_NOT_PASSED: SECRET, SERVER_TOKEN: PASSED, LANG: "C.UTF-8" },
      workspace,
    );
    expect(result.status, result.stdout).toBe(1);
    const report = readFileSync(join(workspace, "report.json"), "utf8");
    expect(probed(report)).toBe("no ancestor is visible");
    for (const [where, text] of Object.entries({ stdout: result.stdout, summary: result.summary, report })) {
      expect(text.includes(SECRET), where).toBe(false);
    }
  });
});
