// End to end: lock, lock --check and run read an MCP 2026-07-28 server through `server/discover`
// (test/fixtures/servers/modern/modern-only.mjs, on the official v2 server SDK, which refuses
// `initialize`), over stdio and Streamable HTTP, and its legacy twin (the v1 SDK over `initialize`)
// the same way. The client picks the era itself; nothing here tells it which one to speak.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type HttpFixture, startHttpFixture, stopAllHttpFixtures } from "../fixtures/servers/live/harness.js";
import { clientBinFlags, ensureClients } from "./crosscheck-clients.js";
import { cliPath, repo, runCli, tempDir } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});
afterEach(async () => {
  await stopAllHttpFixtures();
});

const modernDir = join(repo, "test/fixtures/servers/modern");
const readJson = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), "utf8"));

/** The answer a fixture gives on stdio to one request sent before anything else. */
function firstAnswer(script: string, request: object): Promise<Record<string, unknown>> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(modernDir, script)], { stdio: ["pipe", "pipe", "inherit"] });
    let stdout = "";
    child.once("error", fail);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const newline = stdout.indexOf("\n");
      if (newline < 0) return;
      child.kill();
      done(JSON.parse(stdout.slice(0, newline)) as Record<string, unknown>);
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, ...request })}\n`);
  });
}

const INITIALIZE = {
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1" } },
};

describe("the fixtures speak one era each", () => {
  it("modern-only answers initialize with the unsupported-version error, naming 2026-07-28 alone", async () => {
    const answer = await firstAnswer("modern-only.mjs", INITIALIZE);
    expect(answer.result).toBeUndefined();
    expect(answer.error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"] } });
  });

  it("the legacy twin answers server/discover with method not found", async () => {
    const answer = await firstAnswer("legacy-twin.mjs", { method: "server/discover", params: {} });
    expect(answer.error).toMatchObject({ code: -32601 });
  });
});

/** How a test reaches one of the servers: the CLI's arguments for it (last on the line), with variants (ttl, token header) applied. */
interface Reach {
  /** `checkParams`: over HTTP the server refuses a call without the Mcp-Param-* headers its tool declares (stdio has none). */
  args: (variant?: { ttl?: number; tokenHeader?: boolean; checkParams?: boolean }) => Promise<string[]>;
  env: (variant?: { ttl?: number; tokenHeader?: boolean }) => NodeJS.ProcessEnv;
  transport: "stdio" | "streamable-http";
}

function overStdio(script: string): Reach {
  return {
    transport: "stdio",
    // The variants travel in the environment, passed by name like any secret a server needs.
    args: async () => ["--pass-env", "MODERN_TTL", "--pass-env", "MODERN_TOKEN_HEADER", "--", process.execPath, join(modernDir, script)],
    env: (variant = {}) => ({ MODERN_TTL: variant.ttl === undefined ? "" : String(variant.ttl), MODERN_TOKEN_HEADER: variant.tokenHeader ? "1" : "" }),
  };
}

function overHttp(): Reach {
  // One server per variant and test: the HTTP fixture takes its variant as flags.
  return {
    transport: "streamable-http",
    args: async (variant = {}) => {
      const flags = [
        "--http",
        ...(variant.ttl === undefined ? [] : ["--ttl", String(variant.ttl)]),
        ...(variant.tokenHeader ? ["--token-header"] : []),
        ...(variant.checkParams ? ["--check-params"] : []),
      ];
      const server: HttpFixture = await startHttpFixture(flags, "../modern/modern-only.mjs");
      return ["--url", server.url];
    },
    env: () => ({}),
  };
}

const cases: [string, Reach][] = [
  ["the modern-only server over stdio", overStdio("modern-only.mjs")],
  ["the modern-only server over Streamable HTTP", overHttp()],
  ["the legacy twin over stdio", overStdio("legacy-twin.mjs")],
];

describe.each(cases)("%s", (_name, reach) => {
  it("locks both pages of tools and the instructions, and checks clean", async () => {
    const dir = tempDir();
    const lock = await runCli(["lock", "--json", "lock-report.json", ...(await reach.args())], { cwd: dir, env: reach.env() });
    expect(lock.code, lock.stderr).toBe(0);
    const locked = readJson(dir, "mcp-lint.lock");
    expect(Object.keys(locked.tools)).toEqual(["login", "search"]);
    // From server/discover for the modern server, from initialize for its twin: the same text.
    expect(locked.instructions).toEqual({ known: true, text: "Modern instructions." });
    expect(locked.server).toMatchObject({ name: "modern-fixture", version: "1.0.0" });
    expect(locked.tools.search.definition.inputSchema.properties.region["x-mcp-header"]).toBe("Region");
    // Result fields never reach the lock.
    expect(readFileSync(join(dir, "mcp-lint.lock"), "utf8")).not.toMatch(/ttlMs|cacheScope|resultType/);
    expect(readJson(dir, "lock-report.json").server.transport).toBe(reach.transport);

    const check = await runCli(["lock", "--check", "--json", "report.json", ...(await reach.args())], { cwd: dir, env: reach.env() });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const report = readJson(dir, "report.json");
    expect(report.changes.filter((change: { kind: string }) => change.kind !== "server_changed")).toEqual([]);
    expect(report.server).toMatchObject({ tools: 2, instructions_known: true });
  });

  it("takes a new ttlMs on every page for no change", async () => {
    const dir = tempDir();
    const lock = await runCli(["lock", ...(await reach.args())], { cwd: dir, env: reach.env() });
    expect(lock.code, lock.stderr).toBe(0);
    const check = await runCli(["lock", "--check", "--json", "report.json", ...(await reach.args({ ttl: 5 }))], { cwd: dir, env: reach.env({ ttl: 5 }) });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(readJson(dir, "report.json").changes.filter((change: { kind: string }) => change.kind !== "server_changed")).toEqual([]);
  });

  it("reports x-mcp-header added to login's token as an error (mcp_header_changed)", async () => {
    const dir = tempDir();
    const lock = await runCli(["lock", ...(await reach.args())], { cwd: dir, env: reach.env() });
    expect(lock.code, lock.stderr).toBe(0);
    const variant = { tokenHeader: true };
    const check = await runCli(["lock", "--check", "--json", "report.json", ...(await reach.args(variant))], { cwd: dir, env: reach.env(variant) });
    expect(check.code, check.stdout + check.stderr).toBe(1);
    const changes = readJson(dir, "report.json").changes.filter((change: { kind: string }) => change.kind !== "server_changed");
    expect(changes).toMatchObject([
      { kind: "mcp_header_changed", severity: "error", tool: "login", path: "/inputSchema/properties/token/x-mcp-header", reason: "added", after: "Token" },
    ]);
    expect(check.stdout).toContain("Mcp-Param-Token");
  });

  it("runs the lint and calls a tool (run --probe), its x-mcp-header argument in its Mcp-Param header (regression: issue 41)", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "fixtures.json"),
      JSON.stringify({ version: 1, probes: [{ tool: "search", args: { query: "maps", region: "eu" }, allow_destructive: true }] }),
    );
    // Over HTTP the server refuses a call whose Mcp-Param-Region header is missing (HTTP 400, -32020).
    const args = await reach.args({ checkParams: true });
    const run = await runCli(["run", "--probe", "fixtures.json", "--fail-on", "never", "--json", "run.json", ...args], {
      cwd: dir,
      env: reach.env(),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`server: modern-fixture 1.0.0 (over ${reach.transport})`);
    expect(run.stdout).toContain("1 called, 0 blocked, 0 skipped");
    const report = readJson(dir, "run.json");
    expect(report.probes.map((probe: { status: string }) => probe.status)).toEqual(["ok"]);
    // The echo of the call came back: the arguments reached the server through the era's envelope.
    expect(JSON.stringify(report.probes)).toContain("maps");
  });
});

describe.each([
  ["the modern-only server", "modern-only.mjs", true],
  ["its legacy twin", "legacy-twin.mjs", false],
])("init-fixtures and crosscheck's own read of %s", (_label, script, modern) => {
  const server = ["--", process.execPath, join(modernDir, script)];

  it("init-fixtures writes a probe for each tool of both pages", async () => {
    const dir = tempDir();
    const made = await runCli(["init-fixtures", "fixtures.json", ...server], { cwd: dir });
    expect(made.code, made.stderr).toBe(0);
    expect(readJson(dir, "fixtures.json").probes.map((probe: { tool: string }) => probe.tool)).toEqual(["search", "login"]);
  });

  it("crosscheck reads the server itself in its era; the Inspector, a 2025 client, sees it only when it is legacy", async () => {
    ensureClients();
    const dir = tempDir();
    const run = await runCli(["crosscheck", "--clients", "inspector", ...clientBinFlags(["inspector"]), "--json", "cross.json", ...server], { cwd: dir });
    // The ground truth is mcp-lint's own read, whichever era the server speaks.
    expect(run.stdout).toContain("crosscheck: modern-fixture 1.0.0, 2 tools in tools/list");
    if (modern) {
      // The Inspector 2.12.0 sends only initialize, which the server refuses: a client failure, said as such.
      expect(run.code).toBe(1);
      expect(run.stdout).toContain("[render-client-failed]");
      expect(run.stdout).toContain("Unsupported protocol version");
    } else {
      expect(run.stdout).not.toContain("[render-client-failed]");
    }
  });
});

describe("choosing the era on stdio", () => {
  const starts = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0);
  const launch = (script: string) => [
    "--pass-env",
    "MODERN_START_LOG",
    "--pass-env",
    "MODERN_STRICT",
    "--pass-env",
    "MODERN_SILENT",
    "--",
    process.execPath,
    join(modernDir, script),
  ];

  it.each(["modern-only.mjs", "legacy-twin.mjs"])("probes %s on the process it locks, starting it once", async (script) => {
    const dir = tempDir();
    const log = join(dir, "starts.log");
    const lock = await runCli(["lock", ...launch(script)], { cwd: dir, env: { MODERN_START_LOG: log, MODERN_STRICT: "", MODERN_SILENT: "" } });
    expect(lock.code, lock.stderr).toBe(0);
    expect(starts(log)).toBe(1);
  });

  it("a legacy server that exits at the server/discover probe is started again and initialized (regression: the in-place probe left no fallback)", async () => {
    const dir = tempDir();
    const log = join(dir, "starts.log");
    const lock = await runCli(["lock", ...launch("legacy-twin.mjs")], { cwd: dir, env: { MODERN_START_LOG: log, MODERN_STRICT: "1", MODERN_SILENT: "" } });
    expect(lock.code, lock.stderr).toBe(0);
    expect(starts(log)).toBe(2);
    expect(readJson(dir, "mcp-lint.lock").instructions).toEqual({ known: true, text: "Modern instructions." });
    // The first start's exit is the probe's answer, not a failure to report.
    expect(lock.stderr).toBe("Wrote mcp-lint.lock (2 tools)\n");
  });

  it("a legacy server that never answers the probe is initialized once the start-up bound has passed", async () => {
    const dir = tempDir();
    const log = join(dir, "starts.log");
    const lock = await runCli(["lock", "--startup-timeout", "5", ...launch("legacy-twin.mjs")], {
      cwd: dir,
      env: { MODERN_START_LOG: log, MODERN_SILENT: "1", MODERN_STRICT: "" },
    });
    expect(lock.code, lock.stderr).toBe(0);
    expect(starts(log)).toBe(1);
    expect(Object.keys(readJson(dir, "mcp-lint.lock").tools)).toEqual(["login", "search"]);
  });
});

describe("a 2026-07-28 page the SDK v2 client refuses", () => {
  it("is locked as sent, with the client note (regression: the client's schema check refused the whole page)", async () => {
    const dir = tempDir();
    const launch = ["--pass-env", "MODERN_ODD", "--", process.execPath, join(modernDir, "modern-only.mjs")];
    const lock = await runCli(["lock", ...launch], { cwd: dir, env: { MODERN_ODD: "1" } });
    expect(lock.code, lock.stderr).toBe(0);
    const locked = readJson(dir, "mcp-lint.lock");
    expect(Object.keys(locked.tools)).toEqual(["login", "odd", "search"]);
    expect(locked.tools.odd.definition.inputSchema).toEqual({ type: "string" });
    expect(lock.stdout).toContain("client-sdk1-rejects");
    const check = await runCli(["lock", "--check", ...launch], { cwd: dir, env: { MODERN_ODD: "1" } });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });
});

describe("hostile instructions from server/discover", () => {
  const KEY = "sk-modern-SECRETM-7d1e42";
  // The fixture appends the key, an OSC title sequence and a screen clear to its own words.
  const ECHO = "1";
  const launch = ["--pass-env", "MODERN_KEY", "--pass-env", "MODERN_ECHO", "--", process.execPath, join(modernDir, "modern-only.mjs")];
  const expectClean = (where: string, text: string) => {
    expect(text.includes(KEY), `${where} holds the key`).toBe(false);
    expect(text.includes("SECRETM"), `${where} holds part of the key`).toBe(false);
    expect(/[\u001b\u0007]/.test(text), `${where} holds a control character`).toBe(false);
  };

  it("lock refuses to record a secret they echo, in one line that shows neither it nor the escapes", async () => {
    const dir = tempDir();
    const lock = await runCli(["lock", "--json", "report.json", ...launch], { cwd: dir, env: { MODERN_KEY: KEY, MODERN_ECHO: ECHO } });
    expect(lock.code, lock.stdout + lock.stderr).toBe(2);
    expect(lock.stderr.trim().split("\n")).toHaveLength(1);
    expect(lock.stderr).toMatch(/^mcp-lint: .*(secret|redact)/i);
    expectClean("stdout", lock.stdout);
    expectClean("stderr", lock.stderr);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  });

  it("lock --check shows the changed instructions redacted and neutralized", async () => {
    const dir = tempDir();
    const lock = await runCli(["lock", ...launch], { cwd: dir, env: { MODERN_KEY: KEY, MODERN_ECHO: "" } });
    expect(lock.code, lock.stderr).toBe(0);
    const check = await runCli(["lock", "--check", "--json", "report.json", ...launch], { cwd: dir, env: { MODERN_KEY: KEY, MODERN_ECHO: ECHO } });
    expect(check.code, check.stdout + check.stderr).toBe(1);
    const report = readFileSync(join(dir, "report.json"), "utf8");
    expect(JSON.parse(report).changes.map((change: { kind: string }) => change.kind)).toContain("instructions_changed");
    expect(check.stdout).toContain("key [redacted]");
    expectClean("stdout", check.stdout);
    expectClean("stderr", check.stderr);
    expectClean("report.json", report);
    expectClean("mcp-lint.lock", readFileSync(join(dir, "mcp-lint.lock"), "utf8"));
  });
});

describe("run --probe on a 2026-07-28 server", () => {
  it("after a call that times out, asks server/discover whether the server still answers and goes on (regression: 2026-07-28 has no ping)", async () => {
    const dir = tempDir();
    const search = (query: string, label: string) => ({ tool: "search", label, args: { query }, allow_destructive: true });
    writeFileSync(
      join(dir, "fixtures.json"),
      JSON.stringify({ version: 1, probes: [search("maps", "before"), search("hang", "busy"), search("maps", "after")] }),
    );
    const run = await runCli(
      [
        "run",
        "--probe",
        "fixtures.json",
        "--probe-timeout",
        "1.5",
        "--fail-on",
        "never",
        "--json",
        "run.json",
        "--",
        process.execPath,
        join(modernDir, "modern-only.mjs"),
      ],
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(0);
    const probes = readJson(dir, "run.json").probes as { label: string; status: string }[];
    expect(probes.map((probe) => [probe.label, probe.status])).toEqual([
      ["before", "ok"],
      ["busy", "timeout"],
      ["after", "ok"],
    ]);
  });
});

describe("run --probe on a 2026-07-28 server over HTTP: Mcp-Param headers (issue 41)", () => {
  /** A modern-only server over HTTP that checks Mcp-Param-* headers and logs each call it receives. */
  async function serve(dir: string, flags: string[] = []) {
    const log = join(dir, "calls.jsonl");
    const server = await startHttpFixture(["--http", "--check-params", "--call-log", log, ...flags], "../modern/modern-only.mjs");
    const calls = (): string[] =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line).tool)
        : [];
    return { url: server.url, calls };
  }
  const probeRun = (dir: string, url: string, probes: object[]) => {
    writeFileSync(join(dir, "fixtures.json"), JSON.stringify({ version: 1, probes }));
    return runCli(["run", "--probe", "fixtures.json", "--fail-on", "never", "--json", "run.json", "--url", url], { cwd: dir });
  };

  it("hostile: a tool whose x-mcp-header declarations a client must refuse is blocked, never called, allow_destructive or not", async () => {
    const dir = tempDir();
    const { url, calls } = await serve(dir, ["--bad-headers"]);
    const call = (tool: string, args: object) => ({ tool, label: tool, args, allow_destructive: true });
    const run = await probeRun(dir, url, [
      call("bad_token", { words: "w" }),
      call("bad_twice", { zone: "a", area: "b" }),
      call("bad_items", { tags: ["t"] }),
      call("bad_object", { filter: {} }),
      // Named like other headers, yet valid: called, its value in Mcp-Param-Authorization.
      call("named_authorization", { key: "k" }),
      call("search", { query: "maps", region: "eu" }),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(calls()).toEqual(["named_authorization", "search"]);
    const probes = readJson(dir, "run.json").probes as { label: string; status: string; reason: string | null }[];
    expect(probes.map((probe) => [probe.label, probe.status])).toEqual([
      ["bad_token", "blocked"],
      ["bad_twice", "blocked"],
      ["bad_items", "blocked"],
      ["bad_object", "blocked"],
      ["named_authorization", "ok"],
      ["search", "ok"],
    ]);
    expect(probes[0]?.reason).toContain('its x-mcp-header "a b" is not a header name');
    expect(probes[1]?.reason).toContain(`its x-mcp-header "zone" repeats another declaration's name`);
    expect(run.stdout).toContain("must leave the tool out; it was not called");
    expect(run.stdout).toContain("2 called, 4 blocked, 0 skipped");
  });

  it("hostile: a probe whose header argument has a credential's form is blocked, the header named and the value nowhere", async () => {
    const dir = tempDir();
    const { url, calls } = await serve(dir);
    const token = "ghp_0123456789abcdefghijKLMNOPQRSTuvwx";
    const run = await probeRun(dir, url, [{ tool: "search", args: { query: "maps", region: token }, allow_destructive: true }]);
    expect(run.code, run.stderr).toBe(0);
    expect(calls()).toEqual([]);
    const [probe] = readJson(dir, "run.json").probes as { status: string; reason: string }[];
    expect(probe?.status).toBe("blocked");
    expect(probe?.reason).toContain('its header "Mcp-Param-Region" has the form of a credential');
    for (const text of [run.stdout, run.stderr, readFileSync(join(dir, "run.json"), "utf8")]) expect(text).not.toContain(token);
  });
});

describe("moving between eras", () => {
  it("a lock of the legacy twin checks against the modern-only server with no change to tools or instructions", async () => {
    const dir = tempDir();
    const lock = await runCli(["lock", "--", process.execPath, join(modernDir, "legacy-twin.mjs")], { cwd: dir });
    expect(lock.code, lock.stderr).toBe(0);
    const check = await runCli(["lock", "--check", "--json", "report.json", "--", process.execPath, join(modernDir, "modern-only.mjs")], { cwd: dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    // Only the launch command differs (another script); the era is no part of the lock.
    expect(readJson(dir, "report.json").changes.map((change: { kind: string }) => change.kind)).toEqual(["server_changed"]);
  });
});
