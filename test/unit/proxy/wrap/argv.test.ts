import { describe, expect, it } from "vitest";
import { unwrapArgv, wrappedArgv } from "../../../../src/proxy/wrap/argv.js";

describe("wrapped argv", () => {
  it("puts the proxy in front and takes it out again", () => {
    const argv = wrappedArgv({ version: "1.2.3", launcher: "npx", lock: "/l/x.lock", passEnv: ["TOKEN"], argsAbsent: false }, [
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
    const bare = wrappedArgv({ version: "1.2.3", launcher: "installed", lock: "/l/y.lock", passEnv: [], argsAbsent: true }, ["/bin/server"]);
    expect(unwrapArgv(bare)).toMatchObject({ original: ["/bin/server"], argsAbsent: true, lock: "/l/y.lock" });
  });

  it("recognises a proxy however it is launched, and nothing else", () => {
    expect(unwrapArgv(["npx", "--yes", "mcp-lint", "proxy", "--", "node", "s.js"])?.original).toEqual(["node", "s.js"]);
    expect(unwrapArgv(["C:\\nodejs\\npx.cmd", "-y", "mcp-lint@0.1.0", "proxy", "--lock", "l", "--", "x"])?.original).toEqual(["x"]);
    expect(unwrapArgv(["mcp-lint", "proxy", "--", "x"])?.original).toEqual(["x"]);
    expect(unwrapArgv(["npx", "-y", "mcp-lint@0.1.0", "lock", "--", "x"])).toBeNull();
    expect(unwrapArgv(["npx", "-y", "mcp-lint-other", "proxy", "--", "x"])).toBeNull();
    expect(unwrapArgv(["npx", "-y", "some-server", "proxy", "--", "x"])).toBeNull();
    expect(unwrapArgv(["npx", "-y", "mcp-lint@0.1.0", "proxy", "--"])).toBeNull();
  });
});
