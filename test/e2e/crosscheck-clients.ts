// The real clients the crosscheck and eval tests run, and the eval's npm servers, from test/clients (pinned in its package-lock.json),
// and the helpers both crosscheck test files share. .ci/run installs the clients up front; a run
// without them installs them here, once (a lock folder keeps two test files from installing at once).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { repo, runCli, tempDir } from "./helpers.js";

export const clientsDir = join(repo, "test/clients");
const binDir = join(clientsDir, "node_modules/.bin");
export const catalog = join(repo, "test/fixtures/servers/catalog.mjs");
export const conversions = join(repo, "test/fixtures/crosscheck/conversions.json");
export const booleanProperty = join(repo, "test/fixtures/crosscheck/boolean-property.json");
export const twoTools = join(repo, "test/fixtures/crosscheck/two-tools.json");

/** The pinned clients, by crosscheck id, with the executable each installs. */
export const PINNED = { "claude-code": "claude", codex: "codex", "gemini-cli": "gemini", inspector: "mcp-inspector" } as const;
export type ClientId = keyof typeof PINNED;
const ALL = Object.keys(PINNED) as ClientId[];

/** The npm servers of the eval task set, installed beside the clients. */
export const EVAL_SERVER_PACKAGES = [
  "@modelcontextprotocol/server-filesystem",
  "@modelcontextprotocol/server-memory",
  "@modelcontextprotocol/server-everything",
  "@cyanheads/git-mcp-server",
] as const;

function installed(): boolean {
  return (
    Object.values(PINNED).every((bin) => existsSync(join(binDir, bin))) &&
    EVAL_SERVER_PACKAGES.every((name) => existsSync(join(clientsDir, "node_modules", name, "package.json")))
  );
}

/** Install test/clients unless it is there (about 40 s and 1 GB from the npm registry). */
export function ensureClients(): void {
  if (installed()) return;
  const lock = join(clientsDir, ".installing");
  for (let waited = 0; ; waited += 1000) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test file is installing: wait for it (up to ten minutes), then look again.
      if (waited > 600_000) throw new Error(`${lock} is held; remove it if no install is running`);
      execFileSync("sleep", ["1"]);
      if (installed()) return;
    }
  }
  try {
    if (!installed()) execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefix", clientsDir], { stdio: "inherit", timeout: 600_000 });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Why a client cannot run on this machine, or null when `--version` works. */
export function whyNot(id: ClientId): string | null {
  const bin = join(binDir, PINNED[id]);
  if (!existsSync(bin)) return `${bin} is not installed`;
  // Gemini CLI relaunches itself in a second Node process unless told not to: a few seconds per check.
  const env = { PATH: process.env.PATH ?? "", HOME: tempDir(), GEMINI_CLI_NO_RELAUNCH: "true" };
  const run = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 60_000, env });
  if (run.status !== 0)
    return `${PINNED[id]} --version failed here (${run.error?.message ?? `exit ${run.status}`}): ${(run.stderr ?? "").trim().slice(0, 200)}`;
  return null;
}

/** `--client-bin` flags for the given clients. */
export function clientBinFlags(ids: readonly ClientId[]): string[] {
  return ids.flatMap((id) => ["--client-bin", `${id}=${join(binDir, PINNED[id])}`]);
}

/** The clients that run here, filled by prepareClients. */
export const runnable: ClientId[] = [];
const skipped = new Map<ClientId, string>();

/** For beforeAll: install the clients if needed and find which of `ids` run; on CI every one must. */
export function prepareClients(ids: readonly ClientId[] = ALL): void {
  ensureClients();
  for (const id of ids) {
    if (runnable.includes(id) || skipped.has(id)) continue;
    const why = whyNot(id);
    if (why === null) runnable.push(id);
    else skipped.set(id, why);
  }
  if (process.env.CI && skipped.size > 0) throw new Error(`clients that cannot run: ${[...skipped].map(([id, why]) => `${id}: ${why}`).join("; ")}`);
}

/** Whether a client runs here; a test that needs one that does not says why and checks nothing for it. */
export function runs(id: ClientId): boolean {
  if (skipped.has(id)) {
    console.warn(`crosscheck e2e: ${id} skipped: ${skipped.get(id)}`);
    return false;
  }
  return true;
}

export interface JsonClient {
  id: string;
  status: string;
  reason: string | null;
  shown: number;
  total: number;
  version: string | null;
  /** Requests to its model endpoint refused for want of the run's key. */
  refused: number;
  findings: { rule: string; severity: string; tool: string | null; path: string | null; evidence: string; acknowledged: boolean; message: string }[];
}

/** A client's findings as `rule tool path evidence` lines, in report order. */
export function lines(client: JsonClient | undefined): string[] {
  return (client?.findings ?? []).map((finding) => `${finding.rule} ${finding.tool ?? "-"} ${finding.path ?? "-"} ${finding.evidence}`);
}

/** Run crosscheck with these clients (default: those that run) and return the result and the parsed JSON report. */
export async function crosscheck(args: string[], clients: ClientId[] = runnable, env: NodeJS.ProcessEnv = {}) {
  const dir = tempDir();
  const json = join(dir, "report.json");
  const result = await runCli(["crosscheck", "--clients", clients.join(","), ...clientBinFlags(clients), "--json", json, ...args], { cwd: dir, env });
  let report: { clients: JsonClient[]; counts: Record<string, number> } | null = null;
  try {
    report = JSON.parse(readFileSync(json, "utf8"));
  } catch {
    report = null;
  }
  const client = (id: ClientId) => report?.clients.find((entry) => entry.id === id);
  return { ...result, report, client, dir };
}

/** catalog.mjs over Streamable HTTP on an ephemeral port of 127.0.0.1. */
export function startCatalogHttp(args: string[]): Promise<{ url: string; close: () => void }> {
  const child = spawn(process.execPath, [catalog, ...args, "--http", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((done, fail) => {
    let out = "";
    child.once("exit", (code) => fail(new Error(`catalog.mjs exited with ${code}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = /listening (\d+)/.exec(out);
      if (match) done({ url: `http://127.0.0.1:${match[1]}/mcp`, close: () => child.kill("SIGTERM") });
    });
  });
}
