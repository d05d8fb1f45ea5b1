// Issue 9, item 4 (the Action's part): workflow-command injection. A server puts `::` commands in its
// tool names and descriptions (behind LF, CR, U+2028, leading spaces, `%0A`) and also writes them
// straight into mcp-lint's and the Action's stdout and stderr through /proc/<pid>/fd, past any
// escaping. The runner (modelled in action-harness.ts) must run none of them: the Action stops
// workflow commands around mcp-lint with a token nobody else knows, and its own annotations, printed
// after the resume line, carry the hostile text escaped and neutralized. The direct writes need a
// machine where the server gets no PID namespace (a PATH without unshare): in one it cannot see
// the processes above it.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { annotations, fixtureCommand, runAction } from "./action-harness.js";
import { cliPath, pathWithout, tempDir } from "./helpers.js";

const HOSTILE_NAMES = [
  "q\n::stop-commands::attacker\n",
  "r\r::error title=pwned::via CR",
  "   ::warning title=pwned::leading spaces",
  "s\u2028::error title=pwned::via U+2028",
  "##[error]legacy form",
  "t%0A::error title=pwned::percent-encoded",
];
const DIRECT = "\n::error title=pwned::written straight to the runner\n::add-mask::mcp-lint\n::set-output name=exit-code::0\n::stop-commands::attacker\n";

function lockFor(workspace: string, spec: unknown) {
  const clean = fixtureCommand(workspace, "clean", spec);
  const made = spawnSync("bash", ["-c", `node "${cliPath}" lock -- ${clean}`], { cwd: workspace, encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
}

const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;

describe("workflow-command injection through the Action (issue 9 item 4)", () => {
  let workspace: string;
  let command: string;
  beforeAll(() => {
    workspace = tempDir();
    lockFor(workspace, { tools: [{ name: "t", description: "plain", inputSchema: { type: "object" } }] });
    command = fixtureCommand(workspace, "hostile", {
      tools: [
        { name: "t", description: "plain\n::error title=pwned::in a description\n", inputSchema: { type: "object" } },
        ...HOSTILE_NAMES.map((name) => ({ name, description: `::warning title=pwned::${name}`, inputSchema: { type: "object" } })),
      ],
      writeToAncestors: DIRECT,
    });
  });

  it("runs no command the server wrote, and only the Action's own annotations after the resume line", () => {
    const result = runAction({ command }, { PATH: pathWithout(["unshare"]) }, workspace);
    expect(result.status, result.stdout + result.stderr).toBe(1);
    const { commands, ignored } = result.runner;
    // The attack reached the runner's input, while commands were stopped.
    expect(ignored.some((line) => line.includes("written straight to the runner"))).toBe(true);
    expect(commands[0]?.command).toBe("stop-commands");
    expect(commands[1]?.command).toBe("resume-commands");
    const token = commands[0]?.data ?? "";
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    // The token shows up only in the stop and resume lines, so nothing else could resume.
    expect(result.stdout.split(token).length - 1).toBe(2);
    const rest = commands.slice(2);
    expect(rest.length).toBeGreaterThan(0);
    for (const entry of rest) {
      expect(["error", "warning"]).toContain(entry.command);
      expect(Object.keys(entry.properties).sort()).toEqual(["file", "title"]);
      expect(entry.properties.file).toBe("mcp-lint.lock");
      expect(entry.properties.title).toMatch(/^mcp-lint [a-z_]+( \(.*\))?$/);
      expect(entry.properties.title).not.toMatch(CONTROL);
      expect(entry.data).not.toMatch(CONTROL);
    }
    // A name with a line break reaches the annotation title escaped, not as a second line.
    const titles = rest.map((entry) => entry.properties.title ?? "");
    expect(titles.some((title) => title.includes("q\\u{A}::stop-commands::attacker\\u{A}"))).toBe(true);
    expect(titles.some((title) => title.includes("r\\u{D}::error title=pwned::via CR"))).toBe(true);
    // The injected set-output did not run: the step's only output is the real exit code.
    expect(result.outputs).toBe("exit-code=1\n");
  });

  it("in mcp-lint's PID namespace the server's direct writes never reach the runner (issue 19 item 6)", () => {
    const result = runAction({ command }, {}, workspace);
    expect(result.status, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).not.toContain("written straight to the runner");
    expect(result.runner.commands.filter((entry) => entry.properties.title === "pwned")).toEqual([]);
    expect(result.outputs).toBe("exit-code=1\n");
  });

  it("names the lock file relative to the workspace when working-directory is a subfolder", () => {
    const sub = join(workspace, "servers", "weather");
    mkdirSync(sub, { recursive: true });
    lockFor(sub, { tools: [{ name: "t", description: "plain", inputSchema: { type: "object" } }] });
    const changed = fixtureCommand(sub, "changed", { tools: [{ name: "t", description: "changed", inputSchema: { type: "object" } }] });
    const result = runAction({ command: changed, "working-directory": "servers/weather" }, {}, workspace);
    expect(result.status).toBe(1);
    const shown = annotations(result.runner);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((entry) => entry.properties.file === "servers/weather/mcp-lint.lock")).toBe(true);
  });
});
