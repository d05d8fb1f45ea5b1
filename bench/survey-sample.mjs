#!/usr/bin/env node
// Issue 39's survey on servers the linter was not tuned on: pick servers from a folder of saved
// tools/list captures by a seeded draw, run `mcp-lint check` on each, draw a seeded random sample of
// their findings plus every finding of a rule with fewer than 10, and print a worksheet to judge
// them by hand. The table it prints counts, per rule, the findings and the judged ones the verdicts
// file calls fair or noise.
//
//   npm run build && node bench/survey-sample.mjs DIR [--seed 39] [--servers 40] [--sample 60]
//       [--verdicts FILE] [--worksheet OUT.md] [--json OUT.json] [--cli OTHER/dist/cli.js] [--also RULE:N]
//
// The servers are a seeded shuffle of the eligible lists; the findings a seeded draw (below).
// DIR holds one JSON file per server (`package`, `version`, `tools`), as the S8 bench saves them;
// they are read where they are, never copied. Left out of the draw: the packages of the seed's
// survey (docs/survey.md) and the ones issue 39 named, which items 1-3 were tuned on.
// The verdicts file maps a finding's key (printed in the worksheet) to {"verdict": "fair" | "noise",
// "reason": "..."}; a key it lacks is "unjudged". Same seed, same lists and same build give the
// same servers, the same sample and the same keys.
// Exit status: 0 when it ran, 2 on a usage error or a missing build.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repo, requireBuilt } from "./common.mjs";
import { createRandom } from "./schema-gen.mjs";

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}
const dir = process.argv[2];
if (dir === undefined || dir.startsWith("--") || !existsSync(dir)) {
  console.error(
    "usage: node bench/survey-sample.mjs DIR [--seed N] [--servers N] [--sample N] [--verdicts FILE] [--worksheet OUT.md] [--json OUT.json] [--cli PATH] [--also RULE:N]",
  );
  process.exit(2);
}
const seed = Number(option("--seed", "39"));
const serverCount = Number(option("--servers", "40"));
const sampleSize = Number(option("--sample", "60"));
const RARE = 10;
// --cli PATH runs another build (for example one from before a rule change) on the same draw.
const cli = option("--cli", join(repo, "dist", "cli.js"));
requireBuilt(cli);

// The seed's survey (docs/survey.md) and the servers issue 39 quotes, whose figures items 1-3 were tuned on.
const SURVEYED = new Set([
  "@modelcontextprotocol/server-filesystem",
  "@modelcontextprotocol/server-memory",
  "@modelcontextprotocol/server-everything",
  "@modelcontextprotocol/server-sequential-thinking",
  "@modelcontextprotocol/server-github",
  "@modelcontextprotocol/server-slack",
  "@modelcontextprotocol/server-gitlab",
  "@modelcontextprotocol/server-brave-search",
  "@modelcontextprotocol/server-postgres",
  "@modelcontextprotocol/server-puppeteer",
  "@upstash/context7-mcp",
  "tavily-mcp",
  "@playwright/mcp",
  "firecrawl-mcp",
  "exa-mcp-server",
  "@notionhq/notion-mcp-server",
  "mcp-server-kubernetes",
  "figma-developer-mcp",
  "@cyanheads/git-mcp-server",
  "@wonderwhy-er/desktop-commander",
]);
const TUNED = new Set([
  "@line/line-bot-mcp-server",
  "@netlify/mcp",
  "@brave/brave-search-mcp-server",
  "@mapbox/mcp-server",
  "@mapbox/mcp-devkit-server",
  "@tacticlaunch/mcp-linear",
  "mongodb-mcp-server",
  "@circleci/mcp-server-circleci",
  "mcp-obsidian",
]);

/** Fisher-Yates with the seeded generator; the input order must itself be fixed (sorted). */
function shuffled(items, random) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const lists = readdirSync(dir)
  .filter((file) => file.endsWith(".json"))
  .sort()
  .map((file) => ({ file: join(dir, file), doc: JSON.parse(readFileSync(join(dir, file), "utf8")) }))
  .filter(({ doc }) => typeof doc.package === "string" && !SURVEYED.has(doc.package) && !TUNED.has(doc.package));
const chosen = shuffled(lists, createRandom(seed).next)
  .slice(0, serverCount)
  .sort((x, y) => (x.doc.package < y.doc.package ? -1 : 1));

const servers = [];
const findings = [];
for (const { file, doc } of chosen) {
  const run = spawnSync(process.execPath, [cli, "check", file, "--json", "-"], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0 && run.status !== 1) {
    console.error(`bench: check failed on ${file}: ${run.stderr.trim().split("\n")[0]}`);
    process.exit(2);
  }
  const report = JSON.parse(run.stdout);
  const server = `${doc.package}@${doc.version}`;
  const tools = new Map(doc.tools.map((tool) => [tool.name, tool]));
  servers.push({ server, tools: report.tools, tokens: report.tokens_estimated, score: report.score.server, grade: report.score.grade, exit: run.status });
  for (const finding of [...report.findings, ...report.server_findings]) {
    const tool = finding.tool ?? null;
    const key = createHash("sha256")
      .update([server, tool ?? "(server)", finding.rule, finding.path ?? "", finding.message].join("\u0000"))
      .digest("hex")
      .slice(0, 12);
    findings.push({
      key,
      server,
      tool,
      rule: finding.rule,
      severity: finding.severity,
      path: finding.path ?? null,
      message: finding.message,
      definition: tool === null ? null : tools.get(tool),
    });
  }
}

// The sample: the `sampleSize` findings with the smallest hash of the seed and their place (server,
// tool, rule, path; not the message), then every finding of a rule with fewer than RARE findings over
// the chosen servers. A finding's rank depends on nothing else, so a rule change that rewords or
// removes some findings leaves the others where they were in the draw.
const rank = (finding) =>
  createHash("sha256")
    .update([seed, finding.server, finding.tool ?? "(server)", finding.rule, finding.path ?? ""].join("\u0000"))
    .digest("hex");
const ranked = findings.map((finding) => ({ finding, rank: `${rank(finding)}${finding.key}` })).sort((x, y) => (x.rank < y.rank ? -1 : 1));
const drawn = new Set(ranked.slice(0, sampleSize).map(({ finding }) => finding.key));
const perRule = new Map();
for (const finding of findings) perRule.set(finding.rule, (perRule.get(finding.rule) ?? 0) + 1);
const sample = findings.filter((finding) => drawn.has(finding.key) || (perRule.get(finding.rule) ?? 0) < RARE);
// --also RULE:N draws N more findings of one rule by the same ranks, judged and reported apart from the
// sample (a look at a rule the random draw barely reaches).
const also = option("--also");
const extra = [];
if (also !== undefined) {
  const [rule, count] = also.split(":");
  const inSample = new Set(sample.map((finding) => finding.key));
  for (const { finding } of ranked) {
    if (extra.length >= Number(count)) break;
    if (finding.rule === rule && !inSample.has(finding.key)) extra.push(finding);
  }
}

const verdictsFile = option("--verdicts");
const verdicts = verdictsFile === undefined || !existsSync(verdictsFile) ? {} : JSON.parse(readFileSync(verdictsFile, "utf8"));
const verdictOf = (finding) => verdicts[finding.key]?.verdict ?? "unjudged";

/** The schema node a JSON Pointer names in a definition, or undefined. */
function at(definition, pointer) {
  let node = definition;
  for (const raw of (pointer ?? "").split("/").slice(1)) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return undefined;
    node = node[part];
  }
  return node;
}
const cut = (text, max) => (text.length > max ? `${text.slice(0, max)}...` : text);

const worksheetFile = option("--worksheet");
if (worksheetFile !== undefined) {
  const lines = [`# Survey sample (seed ${seed}): ${sample.length} findings of ${findings.length} on ${servers.length} servers`, ""];
  for (const finding of [...sample, ...extra]) {
    const why = drawn.has(finding.key) ? "" : extra.includes(finding) ? ` (also ${also})` : " (rare rule)";
    lines.push(`## ${finding.key} ${finding.rule} ${finding.severity} ${finding.server} ${finding.tool ?? "(server)"}${why}`);
    lines.push(`- message: ${finding.message}`, `- path: ${finding.path ?? "-"}`, `- verdict: ${verdictOf(finding)} ${verdicts[finding.key]?.reason ?? ""}`);
    if (finding.definition !== undefined && finding.definition !== null) {
      lines.push(`- description: ${cut(JSON.stringify(finding.definition.description ?? null), 600)}`);
      const node = finding.path !== null && finding.path !== "/description" ? at(finding.definition, finding.path) : undefined;
      if (node !== undefined) lines.push(`- at path: ${cut(JSON.stringify(node), 600)}`);
      lines.push(`- inputSchema: ${cut(JSON.stringify(finding.definition.inputSchema ?? null), 900)}`);
    }
    lines.push("");
  }
  writeFileSync(worksheetFile, `${lines.join("\n")}\n`);
}

// The table: per rule, its findings over the chosen servers, how many were sampled and judged fair.
const rows = [...perRule.keys()].sort().map((rule) => {
  const judged = sample.filter((finding) => finding.rule === rule);
  const fair = judged.filter((finding) => verdictOf(finding) === "fair").length;
  const noise = judged.filter((finding) => verdictOf(finding) === "noise").length;
  return { rule, findings: perRule.get(rule), sampled: judged.length, fair, noise, unjudged: judged.length - fair - noise };
});
const total = rows.reduce((sum, row) => ({ sampled: sum.sampled + row.sampled, fair: sum.fair + row.fair, noise: sum.noise + row.noise }), {
  sampled: 0,
  fair: 0,
  noise: 0,
});
const randomFair = sample.filter((finding) => drawn.has(finding.key) && verdictOf(finding) === "fair").length;
// Notes the linter itself marks as not scored (a self-explanatory parameter): the figure without them.
const charged = sample.filter((finding) => !finding.message.endsWith("(not scored)."));
const chargedFair = charged.filter((finding) => verdictOf(finding) === "fair").length;
const out = [
  `seed ${seed}: ${servers.length} servers, ${findings.length} findings, ${sample.length} judged (${drawn.size} random + ${sample.length - drawn.size} of rules with fewer than ${RARE})`,
  "",
];
for (const row of servers)
  out.push(
    `  ${row.server.padEnd(50)} ${String(row.tools).padStart(4)} tools ${String(row.tokens).padStart(7)} tokens ${String(row.score).padStart(3)} ${row.grade} exit ${row.exit}`,
  );
out.push("", `${"rule".padEnd(34)} findings sampled fair noise unjudged`);
for (const row of rows)
  out.push(
    `${row.rule.padEnd(34)} ${String(row.findings).padStart(8)} ${String(row.sampled).padStart(7)} ${String(row.fair).padStart(4)} ${String(row.noise).padStart(5)} ${String(row.unjudged).padStart(8)}`,
  );
out.push(
  "",
  `fair: ${total.fair} of ${total.sampled} (${total.sampled === 0 ? 0 : Math.round((1000 * total.fair) / total.sampled) / 10}%); of the random ${drawn.size}: ${randomFair}`,
);
out.push(`without the ${sample.length - charged.length} notes marked "not scored": ${chargedFair} of ${charged.length} fair`);
if (extra.length > 0) {
  const fair = extra.filter((finding) => verdictOf(finding) === "fair").length;
  out.push(`also ${also} (apart from the sample): ${fair} fair, ${extra.filter((finding) => verdictOf(finding) === "noise").length} noise of ${extra.length}`);
}
for (const finding of [...sample, ...extra].filter((item) => verdictOf(item) === "noise"))
  out.push(`  noise ${finding.key} ${finding.rule} ${finding.server} ${finding.tool ?? "(server)"}: ${verdicts[finding.key]?.reason ?? ""}`);
console.log(out.join("\n"));

const jsonOut = option("--json");
if (jsonOut !== undefined) {
  const strip = ({ definition: _definition, ...rest }) => rest;
  const entry = (finding) => ({ ...strip(finding), drawn: drawn.has(finding.key), verdict: verdictOf(finding), reason: verdicts[finding.key]?.reason ?? null });
  writeFileSync(jsonOut, `${JSON.stringify({ seed, servers, rows, total, sample: sample.map(entry), also: extra.map(entry) }, null, 2)}\n`);
}
