// The Action's input errors (issues 12 and 14, the Action's part): each wrong combination or value
// of `command`, `url`, `config`, `server`, `sarif`, `lint`, `lint-fail-on` and `fail-under` fails
// the step before anything starts: exit 2, one error annotation with one message, the `exit-code`
// output 2, and no stop-commands (mcp-lint never ran). One line per case.
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { annotations, runAction } from "./action-harness.js";
import { tempDir } from "./helpers.js";

const CASES: { name: string; inputs: Record<string, string>; says: string }[] = [
  {
    name: "command and config",
    inputs: { command: "node server.mjs", config: ".mcp.json" },
    says: "Set one of the `command`, `url` and `config` inputs: `command` and `config` are both set.",
  },
  {
    name: "url and config",
    inputs: { url: "https://example.com/mcp", config: ".mcp.json" },
    says: "Set one of the `command`, `url` and `config` inputs: `url` and `config` are both set.",
  },
  {
    name: "all three sources",
    inputs: { command: "node server.mjs", url: "https://example.com/mcp", config: ".mcp.json" },
    says: "Set one of the `command`, `url` and `config` inputs: all three are set.",
  },
  {
    name: "no source",
    inputs: {},
    says: "Set the `command` input (a stdio server), the `url` input (a Streamable HTTP server) or the `config` input (an MCP client config file).",
  },
  {
    name: "server without config",
    inputs: { command: "node server.mjs", server: "notes" },
    says: "The `server` input applies to `config` only: it picks servers of the config file.",
  },
  {
    name: "header-env with config",
    inputs: { config: ".mcp.json", "header-env": "Authorization=MCP_AUTH" },
    says: "`header-env` applies to `url` only; with `config`, headers come from the config file: name the variables its placeholders read in `pass-env`.",
  },
  {
    name: "pass-env with url",
    inputs: { url: "https://example.com/mcp", "pass-env": "TOKEN" },
    says: "`pass-env` applies to `command` and `config` only; a remote server takes `header-env`.",
  },
  {
    name: "lint with config",
    inputs: { config: ".mcp.json", lint: "true" },
    says: "lint does not run with `config`: mcp-lint run lints one server. Lint each server in its own step with `command` or `url`, or set lint to false.",
  },
  { name: "lint not a boolean", inputs: { command: "node server.mjs", lint: "yes" }, says: 'lint must be true or false, not "yes".' },
  {
    name: "fail-under without lint",
    inputs: { command: "node server.mjs", "fail-under": "80" },
    says: "fail-under applies to the lint run: set lint to true, or drop fail-under.",
  },
  {
    name: "fail-under over 100",
    inputs: { command: "node server.mjs", lint: "true", "fail-under": "101" },
    says: 'fail-under must be a score from 0 to 100, not "101".',
  },
  {
    name: "fail-under negative",
    inputs: { command: "node server.mjs", lint: "true", "fail-under": "-5" },
    says: 'fail-under must be a score from 0 to 100, not "-5".',
  },
  {
    name: "fail-under not a number",
    inputs: { command: "node server.mjs", lint: "true", "fail-under": "B" },
    says: 'fail-under must be a score from 0 to 100, not "B".',
  },
  {
    name: "lint-fail-on unknown",
    inputs: { command: "node server.mjs", lint: "true", "lint-fail-on": "fatal" },
    says: 'lint-fail-on must be info, warning, error or never, not "fatal".',
  },
  {
    name: "sarif through a file symlink",
    inputs: { command: "node server.mjs", sarif: "linked.sarif" },
    says: 'The sarif input "linked.sarif" goes through a symlink (linked.sarif); the report is never written through one.',
  },
  {
    name: "sarif through a folder symlink",
    inputs: { command: "node server.mjs", sarif: "reports/new.sarif" },
    says: 'The sarif input "reports/new.sarif" goes through a symlink (reports); the report is never written through one.',
  },
  {
    name: "sarif outside the workspace",
    inputs: { command: "node server.mjs", sarif: "../out.sarif" },
    says: 'The sarif input "../out.sarif" is outside the workspace',
  },
  {
    name: "sarif and json the same file",
    inputs: { command: "node server.mjs", json: "out/r.json", sarif: "./out/r.json" },
    says: "The json and sarif inputs name the same file; give each its own path.",
  },
];

describe("input errors fail the step before anything starts", () => {
  let workspace: string;
  let outside: string;
  beforeAll(() => {
    workspace = tempDir();
    outside = tempDir();
    writeFileSync(join(outside, "victim.txt"), "precious\n");
    // What a pull request can commit: a file symlink and a folder symlink.
    symlinkSync(join(outside, "victim.txt"), join(workspace, "linked.sarif"));
    symlinkSync(outside, join(workspace, "reports"));
  });

  for (const { name, inputs, says } of CASES) {
    it(name, () => {
      const result = runAction(inputs, {}, workspace);
      expect(result.status).toBe(2);
      const shown = annotations(result.runner);
      expect(shown).toHaveLength(1);
      expect(shown[0]?.command).toBe("error");
      expect(shown[0]?.properties).toEqual({ title: "mcp-lint" });
      if (says.endsWith(".")) expect(shown[0]?.data).toBe(says);
      else expect(shown[0]?.data.startsWith(says)).toBe(true);
      expect(result.runner.commands.some((entry) => entry.command === "stop-commands")).toBe(false);
      expect(result.summary).toContain("Exit code: **2** (error)");
      expect(result.outputs).toBe("exit-code=2\n");
      expect(readdirSync(result.runnerTemp)).toEqual([]);
      expect(readFileSync(join(outside, "victim.txt"), "utf8")).toBe("precious\n");
      expect(readdirSync(outside)).toEqual(["victim.txt"]);
    });
  }
});
