// Issue 14, item 6 (the Action's part): the `config` and `server` inputs. A client config of two
// fixture servers is locked once, then checked by the Action clean and after one server's rug pull:
// every annotation and summary row names the server, the hidden text (S8) is annotated and shown,
// `server` narrows the check, and `pass-env` is what the config's placeholders read.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import { beforeAll, describe, expect, it } from "vitest";
import { annotations, type ConfigProject, configProject, runAction } from "./action-harness.js";
import { cliPath, tempDir } from "./helpers.js";

const markdown = new MarkdownIt({ html: true, linkify: true });

/** The cells of each body row of the table whose header starts with `header`. */
function tableRows(summary: string, header: string): string[][] {
  const html = markdown.render(summary);
  const table = [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((match) => match[1] ?? "").find((body) => body.includes(`<th>${header}</th>`));
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table ?? "")?.[1] ?? "";
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => [...(row[1] ?? "").matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => cell[1] ?? ""));
}

describe("the config and server inputs (issue 14 item 6)", () => {
  let project: ConfigProject;
  const passEnv = "NOTES_DIR NOTES_TOKEN";
  beforeAll(() => {
    project = configProject(tempDir());
    const made = spawnSync(process.execPath, [cliPath, "lock", "--config", ".mcp.json"], {
      cwd: project.dir,
      encoding: "utf8",
      env: { ...process.env, ...project.env },
    });
    expect(made.status, made.stderr).toBe(0);
  });

  it("passes on the clean config with a row per server in the summary", () => {
    const result = runAction({ config: ".mcp.json", "pass-env": passEnv, json: "report.json" }, project.env, project.dir);
    expect(result.status, result.stdout).toBe(0);
    expect(annotations(result.runner)).toEqual([]);
    expect(result.summary).toContain("Exit code: **0** (passed)");
    expect(result.summary).toContain("Servers of \\.mcp\\.json: 2");
    expect(tableRows(result.summary, "Server")).toEqual([
      ["alpha", "0", "0", "0"],
      ["beta", "0", "0", "0"],
    ]);
    expect(result.summary).toContain("No changes.");
    expect(result.outputs).toBe("exit-code=0\n");
    const report = JSON.parse(readFileSync(join(project.dir, "report.json"), "utf8"));
    expect(report.servers.map((entry: { name: string }) => entry.name)).toEqual(["alpha", "beta"]);
    expect(readdirSync(result.runnerTemp)).toEqual([]);
  });

  it("fails on a rug pull in one server, naming it in every annotation and row, hidden text included", () => {
    const pulled = configProject(tempDir());
    const made = spawnSync(process.execPath, [cliPath, "lock", "--config", ".mcp.json"], {
      cwd: pulled.dir,
      encoding: "utf8",
      env: { ...process.env, ...pulled.env },
    });
    expect(made.status, made.stderr).toBe(0);
    pulled.pull();
    const result = runAction({ config: ".mcp.json", "pass-env": passEnv }, pulled.env, pulled.dir);
    expect(result.status, result.stdout).toBe(1);
    const shown = annotations(result.runner).map((entry) => ({ level: entry.command, title: entry.properties.title, file: entry.properties.file }));
    expect(shown).toEqual([
      { level: "error", title: "mcp-lint beta: description_changed (read_file)", file: "mcp-lint.lock" },
      { level: "error", title: "mcp-lint beta: S8 hidden_text (read_file)", file: "mcp-lint.lock" },
      { level: "warning", title: "mcp-lint beta: S8 hidden_text (read_file)", file: "mcp-lint.lock" },
    ]);
    const messages = annotations(result.runner).map((entry) => entry.data);
    // The TAG characters are spelled out, never passed through.
    expect(messages[1]).toContain('Contains 2 invisible TAG characters spelling "AB". (at /description) Fix: Remove the hidden text');
    expect(messages.join("")).not.toMatch(/[\u{E0000}-\u{E007F}]/u);
    expect(result.summary).toContain("Exit code: **1** (failed: changes at or above `warning`)");
    expect(tableRows(result.summary, "Server")).toEqual([
      ["alpha", "0", "0", "0"],
      ["beta", "2", "1", "0"],
    ]);
    const rows = tableRows(result.summary, "Kind");
    expect(rows.map((row) => row.slice(0, 4))).toEqual([
      ["error", "description_changed", "beta", "read_file"],
      ["error", "S8 hidden_text", "beta", "read_file"],
      ["warning", "S8 hidden_text", "beta", "read_file"],
    ]);
    expect(rows[2]?.[4]).toContain("Contains a reference to a credential file");
    expect(result.outputs).toBe("exit-code=1\n");

    // `server` narrows the check: alpha alone is clean; a comma list and a line list check both.
    expect(runAction({ config: ".mcp.json", server: "alpha", "pass-env": passEnv }, pulled.env, pulled.dir).status).toBe(0);
    for (const server of ["alpha, beta", "alpha\nbeta\n"]) {
      const both = runAction({ config: ".mcp.json", server, "pass-env": passEnv }, pulled.env, pulled.dir);
      expect(both.status, server).toBe(1);
      expect(tableRows(both.summary, "Server").map((row) => row[0])).toEqual(["alpha", "beta"]);
    }
  });

  it("a server the config does not have is mcp-lint's one-line error, exit 2", () => {
    const result = runAction({ config: ".mcp.json", server: "gamma", "pass-env": passEnv }, project.env, project.dir);
    expect(result.status).toBe(2);
    const shown = annotations(result.runner);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.data).toBe('mcp-lint: --server "gamma" is not in .mcp.json');
    expect(result.outputs).toBe("exit-code=2\n");
  });

  it("pass-env is what the placeholders read: a variable the job has but did not name stays out", () => {
    const result = runAction({ config: ".mcp.json", "pass-env": "NOTES_DIR" }, project.env, project.dir);
    expect(result.status).toBe(2);
    const shown = annotations(result.runner);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.data).toBe('mcp-lint: .mcp.json: server "beta": cannot resolve ${NOTES_TOKEN}: set NOTES_TOKEN in the environment');
    expect(result.summary).toContain("No report: mcp-lint stopped on an error");
  });

  it("reads the config relative to working-directory and annotates the lock relative to the workspace", () => {
    const workspace = tempDir();
    const sub = configProject(join(workspace, "agents"));
    const made = spawnSync(process.execPath, [cliPath, "lock", "--config", ".mcp.json"], {
      cwd: sub.dir,
      encoding: "utf8",
      env: { ...process.env, ...sub.env },
    });
    expect(made.status, made.stderr).toBe(0);
    sub.pull();
    const result = runAction({ config: ".mcp.json", "pass-env": passEnv, "working-directory": "agents" }, sub.env, workspace);
    expect(result.status).toBe(1);
    expect(annotations(result.runner).every((entry) => entry.properties.file === "agents/mcp-lint.lock")).toBe(true);
  });
});
