// Issue 9, item 1: a server that echoes PART of a secret. With --header-env Authorization=MCP_AUTH
// and MCP_AUTH="Bearer sk_live_...", http-server.mjs --echo-parts echoes the token without
// "Bearer "; with user info in the URL it echoes the Basic blob (base64, unpadded, base64url) and
// the decoded user and password; each also URL-encoded and JSON-escaped, in a description, a schema
// property name, the instructions and serverInfo.version. None may reach stdout, stderr, the JSON
// report or a lock file, and `lock` refuses to write (exit 2).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, runCli, tempDir } from "./helpers.js";
import { expectOneLineError, startHttpFixture, stopAllHttpFixtures } from "../fixtures/servers/live/harness.js";

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});
afterEach(async () => {
  await stopAllHttpFixtures();
});

// Characters that make every form differ: "/" and "+" (URL-encoded), '"' and "\" (JSON-escaped).
const TOKEN = 'sk_live_Q7v/+"\\r9ZpX2mW';
const USER = "alice-fixture";
const PASSWORD = 'Pw-8"x/+q=Zk';
const API_WORDS = "KeyOne-4b8c9d0e KeyTwo-77aa11ff";

const pair = `${USER}:${PASSWORD}`;
const base64 = Buffer.from(pair).toString("base64");
const base64url = Buffer.from(pair).toString("base64url");
/** Every piece a server can echo without the whole header value. */
const PIECES = [TOKEN, USER, PASSWORD, pair, base64, base64.replace(/=+$/, ""), base64url, "KeyOne-4b8c9d0e", "KeyTwo-77aa11ff"];
/** Each piece raw, URL-encoded and JSON-escaped, and each of those as it would look inside JSON text. */
const LEAKS = [
  ...new Set(
    PIECES.flatMap((piece) => [piece, encodeURIComponent(piece), JSON.stringify(piece).slice(1, -1)]).flatMap((form) => [
      form,
      JSON.stringify(form).slice(1, -1),
    ]),
  ),
];

function expectNoLeak(where: string, text: string): void {
  for (const leak of LEAKS) {
    expect(text.includes(leak), `${where} contains ${JSON.stringify(leak)}:\n${text.slice(0, 3000)}`).toBe(false);
  }
}

type Source = "bearer" | "userinfo" | "api-key";

function secretRun(base: string, sources: Source[]): { args: string[]; env: Record<string, string> } {
  const url = new URL(base);
  if (sources.includes("userinfo")) {
    url.username = USER;
    url.password = PASSWORD;
  }
  const args = ["--url", url.href];
  if (sources.includes("bearer")) args.push("--header-env", "Authorization=MCP_AUTH");
  if (sources.includes("api-key")) args.push("--header-env", "X-Api-Key=API_KEY");
  return { args, env: { MCP_AUTH: `Bearer ${TOKEN}`, API_KEY: API_WORDS } };
}

const cases: [string, Source[], string[]][] = [
  ["the Bearer token without its scheme", ["bearer"], []],
  ["the Basic blob and both halves of URL user info", ["userinfo"], []],
  ["the words of a multi-part --header-env value", ["api-key"], []],
  ["user info and an API key at once, over the SSE fallback", ["userinfo", "api-key"], ["--sse-only"]],
];

describe("partial secret echoes", () => {
  it("the fixture really echoes the pieces (no secret sent: nothing to redact)", async () => {
    const server = await startHttpFixture(["--echo-parts"]);
    const dir = tempDir();
    const result = await runCli(["lock", "--url", server.url], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(dir, "mcp-lint.lock"), "utf8")).toContain("[parts: ]");
  });

  for (const [name, sources, serverFlags] of cases) {
    it(`lock refuses ${name}: exit 2, no file, no piece in any output`, async () => {
      const server = await startHttpFixture(["--echo-parts", ...serverFlags]);
      const dir = tempDir();
      const { args, env } = secretRun(server.url, sources);
      const result = await runCli(["lock", "--timeout", "10", "--json", "report.json", ...args], { cwd: dir, env });
      expect(result.code, result.stderr).toBe(2);
      expect(expectOneLineError(result.stderr)).toMatch(/echoed back a secret/);
      expectNoLeak("stdout", result.stdout);
      expectNoLeak("stderr", result.stderr);
      expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
      if (existsSync(join(dir, "report.json"))) expectNoLeak("report.json", readFileSync(join(dir, "report.json"), "utf8"));
      // The echo reached every field: the report shows the redaction in each.
      expect(result.stdout).toContain("[redacted]");
    });

    it(`lock --check redacts ${name} in stdout and the JSON report`, async () => {
      const server = await startHttpFixture(["--echo-parts", ...serverFlags]);
      const dir = tempDir();
      const clean = await runCli(["lock", "--url", server.url], { cwd: dir });
      expect(clean.code, clean.stderr).toBe(0);
      const { args, env } = secretRun(server.url, sources);
      const check = await runCli(["lock", "--check", "--timeout", "10", "--json", "report.json", ...args], { cwd: dir, env });
      expect(check.code, check.stderr).toBe(1);
      const report = readFileSync(join(dir, "report.json"), "utf8");
      expectNoLeak("stdout", check.stdout);
      expectNoLeak("stderr", check.stderr);
      expectNoLeak("report.json", report);
      expectNoLeak("mcp-lint.lock", readFileSync(join(dir, "mcp-lint.lock"), "utf8"));
      const parsed = JSON.parse(report) as { changes: { kind: string }[]; server: { version: string } };
      const kinds = new Set(parsed.changes.map((change) => change.kind));
      expect(kinds.has("description_changed")).toBe(true);
      expect(kinds.has("instructions_changed")).toBe(true);
      expect(kinds.has("schema_widened") || kinds.has("schema_text_changed")).toBe(true);
      expect(parsed.server.version).toBe("1.0.0+[redacted]");
    });
  }
});
