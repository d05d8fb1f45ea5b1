import { describe, expect, it } from "vitest";
import { proxyArgs, remoteArgs, unwrapArgv, wrappedArgv } from "../../../../src/proxy/wrap/argv.js";

describe("wrapped argv", () => {
  it("puts the proxy in front and takes it out again", () => {
    const argv = wrappedArgv({ version: "1.2.3", launcher: { kind: "npx" }, lock: "/l/x.lock", passEnv: ["TOKEN"], argsAbsent: false }, [
      "uvx",
      "mcp-server-fetch",
      "--",
    ]);
    expect(argv).toEqual(["npx", "-y", "mcp-lint@1.2.3", "proxy", "--pass-env", "TOKEN", "--lock", "/l/x.lock", "--", "uvx", "mcp-server-fetch", "--"]);
    expect(unwrapArgv(argv)).toEqual({ prefixLength: 8, original: ["uvx", "mcp-server-fetch", "--"], argsAbsent: false, lock: "/l/x.lock", remote: false });
    expect(unwrapArgv(["npx", "-y", "mcp-lint@1.2.3", "proxy", "--lock", "/l", "--url", "https://x/mcp"])).toEqual({
      prefixLength: 7,
      original: [],
      argsAbsent: false,
      lock: "/l",
      remote: true,
    });
    const bare = wrappedArgv({ version: "1.2.3", launcher: { kind: "path" }, lock: "/l/y.lock", passEnv: [], argsAbsent: true }, ["/bin/server"]);
    expect(unwrapArgv(bare)).toMatchObject({ original: ["/bin/server"], argsAbsent: true, lock: "/l/y.lock" });
    // The default: this node and this CLI file, by absolute path.
    const byPath = wrappedArgv(
      {
        version: "1.2.3",
        launcher: { kind: "node", node: "/opt/node/bin/node", cli: "/opt/lib/node_modules/mcp-lint/dist/cli.js" },
        lock: "/l/z.lock",
        passEnv: [],
        argsAbsent: false,
      },
      ["uvx", "mcp-server-fetch"],
    );
    expect(byPath).toEqual([
      "/opt/node/bin/node",
      "/opt/lib/node_modules/mcp-lint/dist/cli.js",
      "proxy",
      "--lock",
      "/l/z.lock",
      "--",
      "uvx",
      "mcp-server-fetch",
    ]);
    expect(unwrapArgv(byPath)).toEqual({ prefixLength: 5, original: ["uvx", "mcp-server-fetch"], argsAbsent: false, lock: "/l/z.lock", remote: false });
  });

  it("recognises a proxy however it is launched, and nothing else", () => {
    expect(unwrapArgv(["npx", "--yes", "mcp-lint", "proxy", "--", "node", "s.js"])?.original).toEqual(["node", "s.js"]);
    expect(unwrapArgv(["C:\\nodejs\\npx.cmd", "-y", "mcp-lint@0.1.0", "proxy", "--lock", "l", "--", "x"])?.original).toEqual(["x"]);
    expect(unwrapArgv(["mcp-lint", "proxy", "--", "x"])?.original).toEqual(["x"]);
    expect(unwrapArgv(["npx", "-y", "mcp-lint@0.1.0", "lock", "--", "x"])).toBeNull();
    expect(unwrapArgv(["npx", "-y", "mcp-lint-other", "proxy", "--", "x"])).toBeNull();
    expect(unwrapArgv(["npx", "-y", "some-server", "proxy", "--", "x"])).toBeNull();
    expect(unwrapArgv(["npx", "-y", "mcp-lint@0.1.0", "proxy", "--"])).toBeNull();
    expect(unwrapArgv(["C:\\Program Files\\nodejs\\node.exe", "C:\\mcp-lint\\dist\\cli.js", "proxy", "--lock", "l", "--", "x"])?.original).toEqual(["x"]);
    // A node server of its own, even one with a proxy command, is not mcp-lint.
    expect(unwrapArgv(["node", "/srv/server.js", "proxy", "--", "x"])).toBeNull();
    expect(unwrapArgv(["node", "/srv/dist/cli.js", "serve", "--", "x"])).toBeNull();
  });

  it("names the config entry for the proxy's review command, and unwrap still takes the whole prefix out", () => {
    const argv = wrappedArgv(
      {
        version: "1.2.3",
        launcher: { kind: "path" },
        lock: "/l/m.lock",
        passEnv: ["TOKEN"],
        argsAbsent: false,
        source: { config: "/p/.mcp.json", entry: "memory" },
      },
      ["npx", "-y", "@modelcontextprotocol/server-memory"],
    );
    expect(argv).toEqual([
      "mcp-lint",
      "proxy",
      "--pass-env",
      "TOKEN",
      "--lock",
      "/l/m.lock",
      "--from-config",
      "/p/.mcp.json",
      "--entry",
      "memory",
      "--",
      "npx",
      "-y",
      "@modelcontextprotocol/server-memory",
    ]);
    expect(unwrapArgv(argv)).toEqual({
      prefixLength: 10,
      original: ["npx", "-y", "@modelcontextprotocol/server-memory"],
      argsAbsent: false,
      lock: "/l/m.lock",
      remote: false,
    });
    const remote = [
      "npx",
      ...remoteArgs({
        version: "1.2.3",
        launcher: { kind: "npx" },
        lock: "/l/r.lock",
        url: "https://x/mcp",
        headerNames: ["Authorization"],
        source: { config: "/p/.mcp.json", entry: "api" },
      }),
    ];
    expect(unwrapArgv(remote)).toMatchObject({ remote: true, lock: "/l/r.lock" });
    expect(proxyArgs(remote)).toEqual({
      lock: "/l/r.lock",
      server: null,
      failOn: null,
      passEnv: [],
      url: "https://x/mcp",
      headers: [],
      headerEnv: ["Authorization=MCP_LINT_HEADER_1"],
    });
  });

  it("reads the proxy's flags in either spelling, the last of a single flag winning, and nothing of the server's own", () => {
    const argv = [
      "mcp-lint",
      "proxy",
      "--paging",
      "--lock=/a.lock",
      "--server",
      "files",
      "--fail-on=error",
      "--pass-env",
      "A",
      "--pass-env=B",
      "--lock",
      "/b.lock",
      "--",
      "srv",
      "--lock",
      "/c.lock",
      "--pass-env",
      "C",
    ];
    expect(proxyArgs(argv)).toEqual({ lock: "/b.lock", server: "files", failOn: "error", passEnv: ["A", "B"], url: null, headers: [], headerEnv: [] });
    expect(proxyArgs(["node", "/srv/server.js", "proxy", "--lock", "/x", "--", "y"])).toBeNull();
  });
});
