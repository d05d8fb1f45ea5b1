import { describe, expect, it } from "vitest";
import { unwrapArgv, wrappedArgv } from "../../../../src/proxy/wrap/argv.js";

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
});
