/**
 * The sandbox of `mcp-lint eval`: the files, knowledge graph and git history the tasks read, built
 * the same way every time (no clock, no randomness but a seeded PRNG, git run with fixed names,
 * dates and no user config), so that every answer in tasks.ts holds for every build.
 */

import { execFile } from "node:child_process";
import { lstat, mkdir, readdir, rm } from "node:fs/promises";
import { devNull } from "node:os";
import { dirname, join } from "node:path";
import { writeFileSafely } from "../lock/io.js";

/** The file that says a folder holds a sandbox this module made (and may rebuild). */
export const SANDBOX_MARKER = ".mcp-lint-eval-sandbox";
const MARKER_TEXT = "This folder is an mcp-lint eval sandbox; mcp-lint eval --setup deletes and rebuilds it.\n";

/** Facts of the sandbox that the tasks ask about. The generators below put them there; tasks.ts reads them from here. */
export const FACTS = {
  appLogLines: 20_000,
  appLogLastLine: "2025-03-14T15:36:40.000Z INFO  [main] shutdown complete: 19999 requests served, 4 workers drained",
  appLogShutdownTime: "15:36:40",
  /** Line 15,000 of logs/app.log carries this request id. */
  appLogLine15000Id: "7be0c415",
  deployStartRelease: "2.14.3",
  deployFinalRelease: "2.14.2",
  billingPort: 8443,
  codenameFile: "projects/search/indexer/notes.md",
  codename: "kestrel",
  retentionFile: "projects/data/warehouse/docs/retention-policy.md",
  retentionDays: 400,
  memoryPeople: 600,
  memoryPerson: "Priya Raman",
  memoryPersonOffice: "Porto",
  memoryManager: "Tomas Berg",
  memoryProject: "Project Heliotrope",
  memoryProjectLead: "Lena Haddad",
  gitCommits: 420,
  gitFirstSubject: "Initial import of the ledger service",
  gitTicket: "OPS-1042",
  gitTicketAuthor: "Sofia Marquez",
  gitReadmeAuthor: "Amara Diallo",
  gitSettingsLines: 1500,
  gitSettingsLastLineAuthor: "Kenji Watanabe",
  gitSettingsLine1203Author: "Maya Okafor",
  gitTag: "v1.2.0",
  gitTagHeadline: "multi-currency settlement for EU merchants",
} as const;

/**
 * Build the sandbox in `dir`. A missing folder is made; an empty one is filled; one that holds a
 * sandbox made here (the marker file) is emptied and built again; anything else is refused. Every
 * file has the same bytes on every build, git objects and commit ids included, except repo/.git/index
 * (git's cache of inodes and times). Takes about a second: the history is one `git fast-import`.
 */
export async function buildSandbox(dir: string): Promise<void> {
  await prepareFolder(dir);
  // The marker goes first, so that a build that fails halfway leaves a folder the next build may empty.
  await writeFileSafely(join(dir, SANDBOX_MARKER), MARKER_TEXT);
  const files = sandboxFiles();
  for (const [path, text] of files) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFileSafely(target, text);
  }
  await buildRepo(join(dir, "repo"));
}

async function prepareFolder(dir: string): Promise<void> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await mkdir(dir, { recursive: true });
    return;
  }
  if (!info.isDirectory()) throw new Error(`the sandbox folder ${dir} exists and is not a folder`);
  const entries = await readdir(dir);
  if (entries.length === 0) return;
  const marker = await lstat(join(dir, SANDBOX_MARKER)).catch(() => null);
  if (marker === null || !marker.isFile())
    throw new Error(`the sandbox folder ${dir} is not empty and holds no mcp-lint eval sandbox; give an empty or new folder`);
  // Our own sandbox: empty it (rm removes links, never what they point to) and build it again.
  for (const entry of entries) await rm(join(dir, entry), { recursive: true, force: true });
}

/** Every file of the sandbox but the git repository, by path below the sandbox. Pure. */
export function sandboxFiles(): Map<string, string> {
  const files = new Map<string, string>();
  files.set("README.md", "# Sandbox\n\nLogs in logs/, service projects in projects/, team notes in notes/, a git repository in repo/.\n");
  files.set("logs/app.log", appLog());
  files.set("logs/deploy.log", deployLog());
  for (const [path, text] of projectFiles()) files.set(path, text);
  files.set("notes/README.md", "Team notes go in this folder, one Markdown file per topic.\n");
  files.set("config/service.yaml", SERVICE_YAML);
  files.set("memory.jsonl", memoryGraph());
  return files;
}

// ---------------------------------------------------------------------------------------------
// A seeded PRNG (mulberry32): the same numbers on every run and every platform.

type Random = () => number;

function prng(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function int(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

function hex(random: Random, length: number): string {
  let out = "";
  while (out.length < length) out += Math.floor(random() * 16).toString(16);
  return out;
}

// ---------------------------------------------------------------------------------------------
// logs/app.log: 20,000 request lines of a web service, the last one its shutdown summary.

const LOG_START_MS = Date.UTC(2025, 2, 14, 8, 0, 0);
const WORKERS = ["api-1", "api-2", "api-3", "api-4"];
const ROUTES = [
  "GET /api/orders/{n}",
  "GET /api/users/{n}",
  "POST /api/payments",
  "GET /api/search?q=term{n}",
  "PUT /api/carts/{n}",
  "GET /healthz",
  "DELETE /api/sessions/{n}",
];
const ERRORS = ["upstream timeout after 3000ms", "connection reset by peer", "database pool exhausted", "payment provider returned 503"];

/** The app log's text (lines end with a newline). Pure. */
export function appLog(): string {
  const random = prng(1);
  const lines: string[] = [];
  for (let number = 1; number < FACTS.appLogLines; number++) {
    const time = new Date(LOG_START_MS + (number - 1) * 1370 + int(random, 0, 999)).toISOString();
    const roll = random();
    const status = roll < 0.015 ? pick(random, [500, 502, 503]) : roll < 0.065 ? pick(random, [400, 404, 409]) : pick(random, [200, 200, 200, 201, 204]);
    const level = status >= 500 ? "ERROR" : status >= 400 ? "WARN " : "INFO ";
    const route = pick(random, ROUTES).replace("{n}", String(int(random, 1, 99_999)));
    const id = number === 15_000 ? FACTS.appLogLine15000Id : hex(random, 8);
    const tail = status >= 500 ? ` ${pick(random, ERRORS)}` : "";
    lines.push(`${time} ${level} [${pick(random, WORKERS)}] req=${id} ${route} ${status} ${int(random, 2, 900)}ms${tail}`);
  }
  lines.push(FACTS.appLogLastLine);
  return `${lines.join("\n")}\n`;
}

// ---------------------------------------------------------------------------------------------
// logs/deploy.log: a deploy of 2.14.3 to nine hosts that ends rolled back to 2.14.2.

const DEPLOY_HOSTS = Array.from({ length: 9 }, (_, index) => `web-0${index + 1}`);
const FAILING_HOSTS = new Set(["web-03", "web-06", "web-08"]);

/** The deploy log's text. Pure. */
export function deployLog(): string {
  const random = prng(2);
  let seconds = 0;
  const at = () => {
    seconds += int(random, 1, 4);
    const total = 9 * 3600 + 12 * 60 + seconds;
    const clock = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60].map((part) => String(part).padStart(2, "0")).join(":");
    return `2025-03-18 ${clock}`;
  };
  const release = FACTS.deployStartRelease;
  const lines = [`${at()} deploy started: release ${release} to ${DEPLOY_HOSTS.length} hosts, rolling, batch size 3`];
  for (const host of DEPLOY_HOSTS) {
    lines.push(`${at()} [${host}] draining connections (timeout 30s)`);
    for (let layer = 1; layer <= 36; layer++) {
      lines.push(`${at()} [${host}] pulling image registry.internal/ledger:${release} layer ${layer}/36 sha256:${hex(random, 24)} ${int(random, 1, 90)} MB`);
    }
    lines.push(`${at()} [${host}] image ledger:${release} ready; restarting service ledger-api`);
    for (let probe = 1; probe <= 5; probe++) {
      const ok = !FAILING_HOSTS.has(host) || probe < 3;
      lines.push(`${at()} [${host}] health check ${probe}/5: ${ok ? `ok in ${int(random, 20, 180)}ms` : "FAILED: /healthz returned 503 (migrations pending)"}`);
    }
    lines.push(`${at()} [${host}] ${FAILING_HOSTS.has(host) ? "marked unhealthy" : "healthy on release"} ${release}`);
  }
  lines.push(`${at()} ${FAILING_HOSTS.size} of ${DEPLOY_HOSTS.length} hosts failed health checks; rollback started`);
  for (const host of DEPLOY_HOSTS) lines.push(`${at()} [${host}] switching to image registry.internal/ledger:${FACTS.deployFinalRelease} (cached)`);
  lines.push(
    `${at()} deploy finished: rolled back to release ${FACTS.deployFinalRelease} after ${FAILING_HOSTS.size} of ${DEPLOY_HOSTS.length} hosts failed health checks`,
  );
  return `${lines.join("\n")}\n`;
}

// ---------------------------------------------------------------------------------------------
// projects/: twelve services of five teams, three small files each, and one retention policy.

const SERVICES: readonly (readonly [team: string, service: string, port: number])[] = [
  ["payments", "billing", FACTS.billingPort],
  ["payments", "ledger", 8080],
  ["payments", "refunds", 8081],
  ["search", "indexer", 9200],
  ["search", "query-api", 9300],
  ["platform", "gateway", 443],
  ["platform", "auth", 8444],
  ["platform", "scheduler", 7070],
  ["data", "warehouse", 5439],
  ["data", "pipelines", 8793],
  ["mobile", "ios-app", 3000],
  ["mobile", "android-app", 3001],
];
const SENTENCES = [
  "The on-call rotation changes every Monday at 10:00.",
  "Dashboards live in the shared observability folder.",
  "Alerts page the owning team first, then the platform team.",
  "Load tests run against the staging cluster every night.",
  "The service reads its secrets from the vault at startup.",
  "Schema changes go through the weekly review.",
  "Feature flags are cleaned up one release after launch.",
  "Incident notes are kept for a year.",
  "Dependencies are bumped in a batch every second week.",
  "The runbook covers restarts, failovers and cache flushes.",
  "Traffic is mirrored to the canary for one hour before a rollout.",
  "Retries use exponential backoff with jitter.",
];

/** The files under projects/, by path. Pure. */
export function projectFiles(): Map<string, string> {
  const random = prng(3);
  const files = new Map<string, string>();
  for (const [team, service, port] of SERVICES) {
    const base = `projects/${team}/${service}`;
    files.set(
      `${base}/README.md`,
      `# ${service}\n\nOwned by the ${team} team. ${pick(random, SENTENCES)}\n\nSee notes.md for open questions and config.json for the runtime settings.\n`,
    );
    const config = { service, team, port, replicas: int(random, 2, 8), logLevel: pick(random, ["info", "warn", "debug"]), timeoutMs: int(random, 5, 60) * 100 };
    files.set(`${base}/config.json`, `${JSON.stringify(config, null, 2)}\n`);
    const lines = [`# ${service} notes`, ""];
    const count = int(random, 4, 8);
    for (let index = 0; index < count; index++) lines.push(`- ${pick(random, SENTENCES)}`);
    if (`${base}/notes.md` === FACTS.codenameFile)
      lines.splice(4, 0, `- The rewrite of the tokenizer goes by the codename ${FACTS.codename}; keep the name internal.`);
    files.set(`${base}/notes.md`, `${lines.join("\n")}\n`);
  }
  files.set(
    FACTS.retentionFile,
    [
      "# Data retention policy",
      "",
      "Applies to every table in the warehouse.",
      "",
      `- Raw events are kept for ${FACTS.retentionDays} days, then deleted.`,
      "- Aggregates are kept for seven years.",
      "- Personal data is removed within 30 days of an erasure request.",
      "",
    ].join("\n"),
  );
  return files;
}

const SERVICE_YAML = [
  "service: ledger",
  "environment: production",
  "deployment:",
  "  replicas: 3",
  "  strategy: rolling",
  "  maxUnavailable: 1",
  "resources:",
  "  cpu: 500m",
  "  memory: 1Gi",
  "",
].join("\n");

// ---------------------------------------------------------------------------------------------
// memory.jsonl: server-memory's knowledge graph of 600 people and 20 projects, in its own format.

const FIRST_NAMES = [
  "Priya",
  "Tomas",
  "Lena",
  "Jonas",
  "Aisha",
  "Mateo",
  "Elif",
  "Noah",
  "Yuki",
  "Sven",
  "Ines",
  "Kwame",
  "Hana",
  "Diego",
  "Freya",
  "Omar",
  "Mei",
  "Lukas",
  "Zara",
  "Ravi",
  "Chloe",
  "Emil",
  "Nadia",
  "Bruno",
  "Saoirse",
  "Arjun",
  "Greta",
  "Kofi",
  "Lucia",
  "Pavel",
];
const LAST_NAMES = [
  "Raman",
  "Berg",
  "Haddad",
  "Novak",
  "Okoro",
  "Silva",
  "Yilmaz",
  "Tanaka",
  "Larsen",
  "Moreau",
  "Mensah",
  "Kowalski",
  "Fischer",
  "Costa",
  "Nakamura",
  "Petrov",
  "Ibrahim",
  "Lindgren",
  "Rossi",
  "Das",
  "Walsh",
  "Horvat",
  "Keller",
  "Santos",
  "Jensen",
  "Aydin",
  "Brennan",
  "Varga",
  "Chen",
  "Dubois",
];
const OFFICES = ["Lisbon", "Berlin", "Toronto", "Nairobi", "Singapore", "Austin", "Warsaw", "Dublin"];
const ROLES = ["software engineer", "senior software engineer", "staff engineer", "product designer", "data analyst", "site reliability engineer"];
const PROJECTS = [
  "Project Aurora",
  "Project Basalt",
  "Project Cobalt",
  "Project Dune",
  "Project Ember",
  "Project Fjord",
  "Project Granite",
  "Project Harbor",
  "Project Iris",
  "Project Juniper",
  "Project Kelp",
  "Project Lumen",
  "Project Meridian",
  "Project Nimbus",
  "Project Onyx",
  "Project Quartz",
  "Project Sable",
  "Project Tundra",
  "Project Vesper",
  FACTS.memoryProject,
];

interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}
interface Relation {
  from: string;
  to: string;
  relationType: string;
}

/** The knowledge graph: entities (people, then projects) and relations. Pure. */
export function memoryEntities(): { entities: Entity[]; relations: Relation[] } {
  const random = prng(4);
  const all: string[] = [];
  for (const first of FIRST_NAMES) for (const last of LAST_NAMES) all.push(`${first} ${last}`);
  // A seeded shuffle, then the people the tasks ask about put where they belong: Tomas and Lena among the 40 managers, Priya last (her relations close to the end of the graph, on its last page).
  for (let index = all.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [all[index], all[other]] = [all[other] as string, all[index] as string];
  }
  const forced = new Map<number, string>([
    [7, FACTS.memoryManager],
    [23, FACTS.memoryProjectLead],
    [FACTS.memoryPeople - 1, FACTS.memoryPerson],
  ]);
  const rest = all.filter((name) => ![...forced.values()].includes(name));
  const people: string[] = [];
  for (let index = 0; index < FACTS.memoryPeople; index++) people.push(forced.get(index) ?? (rest.shift() as string));
  const entities: Entity[] = [];
  const relations: Relation[] = [];
  const managers = people.slice(0, 40);
  people.forEach((name, index) => {
    const office = name === FACTS.memoryPerson ? FACTS.memoryPersonOffice : pick(random, OFFICES);
    const role = index < 5 ? "director of engineering" : index < 40 ? "engineering manager" : pick(random, ROLES);
    entities.push({ name, entityType: "person", observations: [`Office: ${office}`, `Role: ${role}`, `Joined in ${int(random, 2012, 2024)}`] });
    const manager =
      name === FACTS.memoryPerson
        ? FACTS.memoryManager
        : index < 5
          ? null
          : index < 40
            ? (managers[int(random, 0, 4)] as string)
            : pick(random, managers.slice(5));
    if (manager !== null) relations.push({ from: name, to: manager, relationType: "reports_to" });
    relations.push({ from: name, to: pick(random, PROJECTS), relationType: "works_on" });
  });
  for (const project of PROJECTS) {
    entities.push({
      name: project,
      entityType: "project",
      observations: [`Status: ${pick(random, ["active", "paused", "in review"])}`, `Budget code: P-${int(random, 100, 999)}`],
    });
  }
  // Each project's lead after everyone's relations, the asked-about one last.
  PROJECTS.forEach((project, index) => {
    const lead = project === FACTS.memoryProject ? FACTS.memoryProjectLead : (managers[5 + (index % 35)] as string);
    relations.push({ from: lead, to: project, relationType: "leads" });
  });
  return { entities, relations };
}

/** memory.jsonl exactly as server-memory writes it: one JSON object a line, no newline at the end. Pure. */
export function memoryGraph(): string {
  const { entities, relations } = memoryEntities();
  return [
    ...entities.map((e) => JSON.stringify({ type: "entity", name: e.name, entityType: e.entityType, observations: e.observations })),
    ...relations.map((r) => JSON.stringify({ type: "relation", from: r.from, to: r.to, relationType: r.relationType })),
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------
// repo/: a git repository of a ledger service with 420 commits, made with git fast-import.

const AUTHORS: Record<string, string> = {
  "Maya Okafor": "maya.okafor@example.com",
  "Lukas Brandt": "lukas.brandt@example.com",
  "Sofia Marquez": "sofia.marquez@example.com",
  "Kenji Watanabe": "kenji.watanabe@example.com",
  "Amara Diallo": "amara.diallo@example.com",
  "Oskar Lindqvist": "oskar.lindqvist@example.com",
};
const AUTHOR_NAMES = Object.keys(AUTHORS);
const AREAS = ["settlement", "payouts", "reconciliation", "ledger export", "fx rates", "invoices", "audit log", "webhooks", "chargebacks", "statements"];
const VERBS = ["Refactor", "Speed up", "Add metrics to", "Harden", "Simplify", "Document", "Add tests for", "Clean up", "Tune", "Log more context in"];
const REPO_START = Date.UTC(2023, 0, 2, 9, 0, 0) / 1000;
/** Commits whose author and change the tasks depend on. */
const TICKET_COMMIT = 42;
const README_COMMITS = new Map<number, string>([
  [57, "Lukas Brandt"],
  [190, "Oskar Lindqvist"],
  [377, FACTS.gitReadmeAuthor],
]);
const LINE_1203_COMMIT = 265;
const LAST_LINE_COMMIT = 401;
const TAGS = new Map<number, string>([
  [100, "v1.0.0"],
  [200, "v1.1.0"],
  [300, FACTS.gitTag],
  [400, "v1.3.0"],
]);

interface Commit {
  author: string;
  time: number;
  message: string;
  /** Files written by this commit (whole contents). */
  files: Map<string, string>;
}

/** The repository's history, oldest first, and its annotated tags. Pure. */
export function repoHistory(): { commits: Commit[]; tags: { name: string; commit: number; tagger: string; time: number; message: string }[] } {
  const random = prng(5);
  const settings = Array.from(
    { length: FACTS.gitSettingsLines },
    (_, index) => `LEDGER_SETTING_${String(index + 1).padStart(4, "0")} = ${int(random, 1, 500)}`,
  );
  const modules = Array.from({ length: 24 }, (_, index) => [`"""Ledger module ${index}."""`, ""]);
  const readme = (version: number) =>
    `# ledger\n\nThe ledger service: double-entry bookkeeping for merchant payments.\n\nREADME revision ${version}.\n${version >= 3 ? "\n## Reconciliation job\n\nRuns nightly at 02:00 UTC and compares the ledger with the bank statements.\n" : ""}`;
  const commits: Commit[] = [];
  for (let index = 0; index < FACTS.gitCommits; index++) {
    const files = new Map<string, string>();
    let author = pick(random, AUTHOR_NAMES);
    let message: string;
    const area = pick(random, AREAS);
    if (index === 0) {
      author = "Oskar Lindqvist";
      message = `${FACTS.gitFirstSubject}\n\nImported from the monolith at revision 8812.\n`;
      files.set("README.md", readme(0));
      files.set("src/settings.py", `${settings.join("\n")}\n`);
    } else if (index === TICKET_COMMIT) {
      author = FACTS.gitTicketAuthor;
      message = `Fix ${FACTS.gitTicket}: retry settlement webhooks on HTTP 502\n\nThe provider answers 502 during its deploys; retry three times with backoff.\n`;
    } else {
      message = `${pick(random, VERBS)} ${area} (LED-${2000 + index})\n`;
    }
    const readmeAuthor = README_COMMITS.get(index);
    if (readmeAuthor !== undefined) {
      author = readmeAuthor;
      message = `Document the ${["deploy steps", "local setup", "reconciliation job"][[...README_COMMITS.keys()].indexOf(index)]} in the README\n`;
      files.set("README.md", readme([...README_COMMITS.keys()].indexOf(index) + 1));
    }
    let line: number | null = null;
    if (index === LINE_1203_COMMIT) {
      author = FACTS.gitSettingsLine1203Author;
      line = 1203;
    } else if (index === LAST_LINE_COMMIT) {
      author = FACTS.gitSettingsLastLineAuthor;
      line = FACTS.gitSettingsLines;
      message = "Raise the ledger export batch size\n";
    } else if (index > 0 && index % 3 === 0) {
      line = int(random, 1, FACTS.gitSettingsLines - 1);
      if (line === 1203) line = 1202;
    }
    if (line !== null) {
      settings[line - 1] = `LEDGER_SETTING_${String(line).padStart(4, "0")} = ${int(random, 501, 9999)}`;
      files.set("src/settings.py", `${settings.join("\n")}\n`);
    }
    const module = modules[index % modules.length] as string[];
    module.push(`def handler_${String(index).padStart(4, "0")}(event):`, `    return ${index}`, "");
    files.set(`src/ledger/module_${String(index % modules.length).padStart(2, "0")}.py`, module.join("\n"));
    commits.push({ author, time: REPO_START + index * 61_200 + int(random, 0, 3599), message, files });
  }
  const tags = [...TAGS].map(([commit, name]) => ({
    name,
    commit,
    tagger: "Maya Okafor",
    time: (commits[commit] as Commit).time + 600,
    message: name === FACTS.gitTag ? `Release 1.2.0\n\nHeadline: ${FACTS.gitTagHeadline}.\n` : `Release ${name.slice(1)}\n`,
  }));
  return { commits, tags };
}

/** The git fast-import stream of the history. Pure. */
export function fastImportStream(): string {
  const { commits, tags } = repoHistory();
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const ident = (name: string, time: number) => `${name} <${AUTHORS[name] ?? "unknown@example.com"}> ${time} +0000`;
  const parts: string[] = [];
  commits.forEach((commit, index) => {
    parts.push(`commit refs/heads/main\nmark :${index + 1}\n`);
    parts.push(`author ${ident(commit.author, commit.time)}\ncommitter ${ident(commit.author, commit.time)}\n`);
    parts.push(data(commit.message));
    if (index > 0) parts.push(`from :${index}\n`);
    for (const [path, text] of commit.files) parts.push(`M 100644 inline ${path}\n${data(text)}`);
    parts.push("\n");
  });
  for (const tag of tags) parts.push(`tag ${tag.name}\nfrom :${tag.commit + 1}\ntagger ${ident(tag.tagger, tag.time)}\n${data(tag.message)}`);
  parts.push("done\n");
  return parts.join("");
}

/** An environment for git that no user or system config reaches, with fixed names and dates. */
function gitEnvironment(): NodeJS.ProcessEnv {
  const identity = "Sandbox Builder";
  const email = "sandbox@example.com";
  const date = `${REPO_START + FACTS.gitCommits * 61_200} +0000`;
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: devNull,
    LC_ALL: "C",
    TZ: "UTC",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: devNull,
    GIT_AUTHOR_NAME: identity,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: identity,
    GIT_COMMITTER_EMAIL: email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
}

const GIT_CONFIG = [
  "-c",
  "user.name=Sandbox Builder",
  "-c",
  "user.email=sandbox@example.com",
  "-c",
  "commit.gpgsign=false",
  "-c",
  "tag.gpgsign=false",
  "-c",
  "core.autocrlf=false",
];

function git(cwd: string, args: string[], input?: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = execFile(
      "git",
      [...GIT_CONFIG, ...args],
      { cwd, env: gitEnvironment(), maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
      (error, _stdout, stderr) => {
        if (error === null) return done();
        const last = String(stderr).trim().split("\n").at(-1) ?? "";
        fail(new Error(`git ${args[0]} failed while building the sandbox${last === "" ? `: ${error.message}` : `: ${last.slice(0, 200)}`}`));
      },
    );
    child.stdin?.on("error", () => {});
    child.stdin?.end(input ?? "");
  });
}

async function buildRepo(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await git(dir, ["init", "--quiet", "--initial-branch=main"]);
  await git(dir, ["fast-import", "--quiet", "--date-format=raw"], fastImportStream());
  await git(dir, ["reset", "--hard", "--quiet", "main"]);
}
