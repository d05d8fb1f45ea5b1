// A wrapped config entry, as lock --config reads it: the server behind the proxy, launched as the
// proxy launches it, and the lock the proxy reads (issue 38 item 4). Pure: nothing is launched.
import { describe, expect, it } from "vitest";
import { entryJob } from "../../../src/cli/lock-config.js";
import { readConfigText } from "../../../src/config/readers/index.js";
import { parseConfigText } from "../../../src/config/readers/syntax.js";

function jobOf(entries: Record<string, unknown>, name: string, env: Record<string, string> = {}) {
  const path = "/p/.mcp.json";
  const text = JSON.stringify({ mcpServers: entries });
  const server = readConfigText(text, path).servers.find((candidate) => candidate.name === name);
  if (server === undefined) throw new Error(`no server ${name}`);
  return entryJob(path, parseConfigText(text, path).value, server, env);
}

describe("entryJob on a wrapped entry", () => {
  it("reads the server after -- with the --pass-env names (the entry's env first, then this shell's), against the proxy's lock", () => {
    const job = jobOf(
      {
        memory: {
          command: "/usr/bin/node",
          args: [
            "/opt/mcp-lint/dist/cli.js",
            "proxy",
            "--pass-env",
            "TOKEN",
            "--pass-env",
            "FROM_SHELL",
            "--lock",
            "locks/memory.lock",
            "--fail-on",
            "error",
            "--",
            "npx",
            "-y",
            "server-memory@1.0.0",
          ],
          env: { TOKEN: "tok-secret-value-1234", UNPASSED: "x" },
        },
      },
      "memory",
      { FROM_SHELL: "shell-value", HOME: "/home/u" },
    );
    expect(job.target).toMatchObject({
      kind: "stdio",
      command: "npx",
      args: ["-y", "server-memory@1.0.0"],
      env: { TOKEN: "tok-secret-value-1234", FROM_SHELL: "shell-value" },
    });
    expect(job.target?.kind === "stdio" ? Object.keys(job.target.env) : []).not.toContain("UNPASSED");
    expect(job.target?.secrets).toContain("tok-secret-value-1234");
    expect(job.launch).toEqual(["npx", "-y", "server-memory@1.0.0"]);
    expect(job.wrapped).toEqual({ lock: "/p/locks/memory.lock", server: null, failOn: "error" });
    expect(job.key).toBe("memory");
  });

  it("reads a wrapped remote entry's URL and its headers from the entry's env", () => {
    const job = jobOf(
      {
        api: {
          command: "npx",
          args: [
            "-y",
            "mcp-lint@1.0.0",
            "proxy",
            "--header-env",
            "Authorization=MCP_LINT_HEADER_1",
            "--lock",
            "/l/api.lock",
            "--url",
            "https://api.example.com/mcp",
          ],
          env: { MCP_LINT_HEADER_1: "Bearer tok-remote-5678", MCP_LINT_WRAPPED_ENTRY: "{}" },
        },
      },
      "api",
    );
    expect(job.target).toMatchObject({ kind: "http", headers: [["Authorization", "Bearer tok-remote-5678"]] });
    expect(job.target?.kind === "http" ? job.target.url.href : "").toBe("https://api.example.com/mcp");
    expect(job.wrapped).toEqual({ lock: "/l/api.lock", server: null, failOn: null });
  });

  it("a proxy without --lock is the server behind it, locked into the config's lock; any other entry is as it is", () => {
    const entries = { fix: { command: "mcp-lint", args: ["proxy", "--paging", "--", "uvx", "server-git"] }, plain: { command: "uvx", args: ["server-git"] } };
    const fix = jobOf(entries, "fix");
    expect(fix.target).toMatchObject({ command: "uvx", args: ["server-git"] });
    expect(fix.wrapped).toBeUndefined();
    expect(jobOf(entries, "plain").wrapped).toBeUndefined();
  });
});
