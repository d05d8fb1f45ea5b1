// crosscheck end to end over Streamable HTTP (a header secret every client must carry and no output
// may show) and with a baseline, with the real clients of test/clients.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClientId, catalog, conversions, crosscheck, lines, prepareClients, runnable, startCatalogHttp, twoTools } from "./crosscheck-clients.js";
import { tempDir } from "./helpers.js";

beforeAll(() => prepareClients(), 600_000);

describe("crosscheck with real clients: Streamable HTTP with a secret header", () => {
  let server: Awaited<ReturnType<typeof startCatalogHttp>> | undefined;
  const secret = "xc-secret-token-5e1f9a";
  afterAll(() => server?.close());

  it("every client reaches the server with the header, and the value appears in no output", async () => {
    server = await startCatalogHttp([conversions, "--require-header", `X-Api-Key=${secret}`]);
    const run = await crosscheck(["--url", server.url, "--header-env", "X-Api-Key=XC_KEY"], runnable, { XC_KEY: secret });
    for (const id of runnable) expect(run.client(id)?.status, `${id}: ${run.client(id)?.reason}`).toBe("compared");
    for (const id of runnable) expect(run.client(id)?.shown).toBe(5);
    const json = readFileSync(join(run.dir, "report.json"), "utf8");
    for (const text of [run.stdout, run.stderr, json]) expect(text).not.toContain(secret);
  }, 300_000);
});

describe("crosscheck baselines with a real client", () => {
  it("--update-baseline acknowledges the run's findings; a later run with the file has nothing left to report", async () => {
    const one: ClientId[] = runnable.includes("codex") ? ["codex"] : runnable.slice(0, 1);
    if (one.length === 0) return;
    const dir = tempDir();
    const baseline = join(dir, "baseline.json");
    const first = await crosscheck(["--baseline", baseline, "--update-baseline", "--fail-on", "info", "--", "node", catalog, conversions], one);
    expect(first.code, first.stderr).toBe(0);
    const bytes = readFileSync(baseline, "utf8");
    expect(JSON.parse(bytes).entries.length).toBe(first.report?.clients[0]?.findings.length);
    const later = await crosscheck(["--baseline", baseline, "--fail-on", "info", "--", "node", catalog, conversions], one);
    expect(later.code, later.stdout).toBe(0);
    expect(later.report?.counts).toEqual({ info: 0, warning: 0, error: 0 });
    expect(later.report?.clients[0]?.findings.every((finding) => finding.acknowledged)).toBe(true);
  }, 300_000);
});

describe("crosscheck with real clients: a launch whose arguments hold `$`", () => {
  it("Claude Code and Gemini CLI, which expand ${NAME} in their configs, start the server with the arguments as given", async () => {
    const dir = join(tempDir(), "notes ${HOME} $PATH");
    mkdirSync(dir);
    copyFileSync(twoTools, join(dir, "two-tools.json"));
    const expanding = runnable.filter((id) => id === "claude-code" || id === "gemini-cli");
    if (expanding.length === 0) return;
    const run = await crosscheck(["--", "node", catalog, join(dir, "two-tools.json")], expanding);
    for (const id of expanding) expect(run.client(id)?.status, `${id}: ${run.client(id)?.reason}`).toBe("compared");
    for (const id of expanding) expect(lines(run.client(id)), id).toEqual([]);
  }, 300_000);
});
