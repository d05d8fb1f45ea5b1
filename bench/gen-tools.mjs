#!/usr/bin/env node
// Deterministic generator of realistic MCP tool definitions, for benchmarks.
//
//   import { generateTools } from "./gen-tools.mjs";  generateTools(1000, 42)
//   node bench/gen-tools.mjs <n> <out.json> [seed]
//
// CLI mode writes a from-file fixture document:
//   { "serverInfo": {...}, "instructions": "...", "tools": [...] }
// which both `mcp-lint lock --from FILE` and test/fixtures/servers/from-file.mjs accept.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** mulberry32: small, fast, deterministic 32-bit PRNG. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DOMAINS = {
  repo: ["issue", "pull_request", "branch", "commit", "release", "label", "milestone"],
  db: ["table", "row", "index", "query", "migration", "snapshot"],
  crm: ["contact", "deal", "account", "note", "task", "pipeline"],
  cloud: ["instance", "bucket", "volume", "function", "queue", "secret"],
  docs: ["page", "folder", "comment", "revision", "template"],
  chat: ["channel", "message", "thread", "reaction", "user"],
  billing: ["invoice", "customer", "subscription", "refund", "coupon"],
};
const DOMAIN_NAMES = Object.keys(DOMAINS);

// verb -> [annotations kind, sentence fragment]
const VERBS = {
  get: ["read", "Fetch a single"],
  list: ["read", "List"],
  search: ["read", "Search for"],
  create: ["write", "Create a new"],
  update: ["write", "Update an existing"],
  delete: ["destructive", "Permanently delete *"],
  archive: ["write", "Archive *"],
  export: ["read", "Export *"],
};
const VERB_NAMES = Object.keys(VERBS);

const SECOND_SENTENCES = [
  "Results are scoped to the workspace the server was configured with.",
  "The caller must have at least viewer access to the parent resource.",
  "Timestamps are returned in ISO 8601 format, in UTC.",
  "Large results are truncated; use the cursor to fetch more.",
  "Fields that are not set are omitted from the response.",
  "Rate limits apply: at most 60 calls per minute per token.",
];
const THIRD_SENTENCES = [
  "Prefer the list variant when the identifier is not known.",
  "This call is safe to retry.",
  "Changes are visible to other users immediately.",
  "Use dry_run to preview the effect without applying it.",
  "Deleted items cannot be restored after 30 days.",
  "Returns an error if the resource is locked by another operation.",
];
const FOURTH_SENTENCES = [
  "See the server instructions for the allowed values of each filter.",
  "Set verbose to include nested objects in the output.",
  "The response includes an etag that can be used for optimistic concurrency.",
];

const STRING_FIELDS = [
  { name: "owner", description: "Account or organisation that owns the resource.", pattern: "^[A-Za-z0-9-]{1,39}$", maxLength: 39 },
  { name: "slug", description: "URL-safe short name.", pattern: "^[a-z0-9][a-z0-9-]*$", maxLength: 100 },
  { name: "email", description: "Email address of the person concerned.", format: "email", maxLength: 254 },
  { name: "since", description: "Only include items changed after this time.", format: "date-time" },
  { name: "url", description: "Link to the external resource.", format: "uri", maxLength: 2048 },
  { name: "title", description: "Human-readable title.", minLength: 1, maxLength: 256 },
  { name: "body", description: "Free-form text, Markdown allowed.", maxLength: 65536 },
  { name: "cursor", description: "Opaque cursor returned by a previous call." },
  { name: "id", description: "Identifier of the resource.", pattern: "^[A-Za-z0-9_]{6,64}$" },
];
const INTEGER_FIELDS = [
  { name: "limit", description: "Maximum number of items to return.", minimum: 1, maximum: 100, default: 20 },
  { name: "page", description: "1-based page number.", minimum: 1, maximum: 10000 },
  { name: "timeout_ms", description: "Give up after this many milliseconds.", minimum: 100, maximum: 120000 },
  { name: "priority", description: "Priority from 0 (lowest) to 5 (highest).", minimum: 0, maximum: 5 },
];
const ENUM_FIELDS = [
  { name: "state", description: "Filter by state.", enum: ["open", "closed", "all"], default: "open" },
  { name: "sort", description: "Sort order of the results.", enum: ["created", "updated", "name", "relevance"] },
  { name: "direction", description: "Sort direction.", enum: ["asc", "desc"], default: "desc" },
  { name: "visibility", description: "Who can see the resource.", enum: ["private", "internal", "public"] },
];
const ARRAY_FIELDS = [
  { name: "labels", description: "Labels to filter by or apply." },
  { name: "fields", description: "Only return these fields." },
  { name: "assignees", description: "User names to assign." },
  { name: "tags", description: "Free-form tags." },
];
const OBJECT_FIELDS = [
  {
    name: "filter",
    description: "Structured filter applied before sorting.",
    properties: {
      created_after: { type: "string", format: "date-time" },
      created_before: { type: "string", format: "date-time" },
      author: { type: "string", maxLength: 64 },
    },
  },
  {
    name: "options",
    description: "Optional behaviour switches.",
    properties: {
      dry_run: { type: "boolean", default: false, description: "Validate only, do not apply." },
      verbose: { type: "boolean", default: false },
      retries: { type: "integer", minimum: 0, maximum: 5 },
    },
  },
  {
    name: "location",
    description: "Where the resource lives.",
    properties: {
      region: { type: "string", enum: ["us-east-1", "eu-west-1", "ap-south-1"] },
      zone: { type: "string", pattern: "^[a-z]$" },
    },
    required: ["region"],
  },
];

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}
function int(rand, lo, hi) {
  return lo + Math.floor(rand() * (hi - lo + 1));
}
/** k distinct items from list, in list order. */
function sample(rand, list, k) {
  const idx = list.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx
    .slice(0, k)
    .sort((x, y) => x - y)
    .map((i) => list[i]);
}
function withoutName(field) {
  const { name: _name, ...rest } = field;
  return rest;
}

function makeProperty(rand, kind, useDefs) {
  switch (kind) {
    case "string": {
      const f = pick(rand, STRING_FIELDS);
      return [f.name, { type: "string", ...withoutName(f) }];
    }
    case "integer": {
      const f = pick(rand, INTEGER_FIELDS);
      return [f.name, { type: "integer", ...withoutName(f) }];
    }
    case "enum": {
      const f = pick(rand, ENUM_FIELDS);
      return [f.name, { type: "string", ...withoutName(f) }];
    }
    case "array": {
      const f = pick(rand, ARRAY_FIELDS);
      return [
        f.name,
        {
          type: "array",
          description: f.description,
          items: { type: "string", minLength: 1, maxLength: 64 },
          maxItems: int(rand, 5, 100),
          uniqueItems: true,
        },
      ];
    }
    case "object": {
      const f = pick(rand, OBJECT_FIELDS);
      if (useDefs) return [f.name, { $ref: `#/$defs/${f.name}`, description: f.description }];
      return [f.name, objectFieldSchema(f)];
    }
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}
function objectFieldSchema(f) {
  const schema = { type: "object", description: f.description, properties: f.properties, additionalProperties: false };
  if (f.required) schema.required = f.required;
  return schema;
}

const KINDS = ["string", "string", "integer", "enum", "array", "object"];

function makeInputSchema(rand) {
  const count = int(rand, 3, 8);
  const useDefs = rand() < 0.25;
  const properties = {};
  const defs = {};
  let guard = 0;
  while (Object.keys(properties).length < count && guard++ < 100) {
    const kind = pick(rand, KINDS);
    const [name, schema] = makeProperty(rand, kind, useDefs);
    if (name in properties) continue;
    properties[name] = schema;
    if (kind === "object" && useDefs) {
      const f = OBJECT_FIELDS.find((o) => o.name === name);
      defs[name] = objectFieldSchema(f);
    }
  }
  const names = Object.keys(properties);
  const required = sample(rand, names, int(rand, 1, Math.min(3, names.length)));
  const inputSchema = { type: "object", properties, required, additionalProperties: false };
  if (Object.keys(defs).length > 0) inputSchema.$defs = defs;
  return inputSchema;
}

function makeOutputSchema(noun) {
  return {
    type: "object",
    properties: {
      [noun]: {
        type: "object",
        properties: {
          id: { type: "string" },
          created_at: { type: "string", format: "date-time" },
          updated_at: { type: "string", format: "date-time" },
        },
        required: ["id"],
      },
      etag: { type: "string" },
    },
    required: [noun],
  };
}

function makeAnnotations(kind, title) {
  switch (kind) {
    case "read":
      return { title, readOnlyHint: true, openWorldHint: false };
    case "write":
      return { title, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
    default:
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
  }
}

function humanize(s) {
  return s.replace(/_/g, " ");
}

/**
 * Returns `n` realistic tool definitions. The same (n, seed) always yields the
 * same array, and tool i is the same whatever n is (each tool has its own PRNG).
 */
export function generateTools(n, seed = 1) {
  const tools = [];
  for (let i = 0; i < n; i++) {
    const rand = prng((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(i + 1, 0x85ebca6b)) >>> 0);
    const domain = pick(rand, DOMAIN_NAMES);
    const noun = pick(rand, DOMAINS[domain]);
    const verb = pick(rand, VERB_NAMES);
    const [kind, lead] = VERBS[verb];
    const name = `${domain}_${verb}_${noun}_${i}`;
    const title = `${verb[0].toUpperCase()}${verb.slice(1)} ${humanize(noun)}`;

    const thing = humanize(noun);
    const article = /^[aeiou]/.test(thing) ? "an" : "a";
    const sentences = [
      `${lead.replace("*", article)} ${thing}${verb === "list" || verb === "search" ? "s" : ""} in the ${domain} service.`,
      pick(rand, SECOND_SENTENCES),
    ];
    if (rand() < 0.7) sentences.push(pick(rand, THIRD_SENTENCES));
    if (rand() < 0.3) sentences.push(pick(rand, FOURTH_SENTENCES));

    const tool = {
      name,
      title,
      description: sentences.join(" "),
      inputSchema: makeInputSchema(rand),
    };
    if (rand() < 0.3) tool.outputSchema = makeOutputSchema(noun);
    if (rand() < 0.85) tool.annotations = makeAnnotations(kind, title);
    // Deep copy so no two tools share nested objects (the tables above are reused).
    tools.push(structuredClone(tool));
  }
  return tools;
}

/** A complete from-file document around `generateTools(n, seed)`. */
export function generateServerFile(n, seed = 1) {
  return {
    serverInfo: { name: "bench-generated", version: `1.0.${n}` },
    instructions:
      "Generated benchmark server. Tools are grouped by service (repo, db, crm, cloud, docs, chat, billing); " +
      "read-only tools are marked with readOnlyHint.",
    tools: generateTools(n, seed),
  };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [nArg, out, seedArg] = process.argv.slice(2);
  const n = Number(nArg);
  const seed = seedArg === undefined ? 1 : Number(seedArg);
  if (!Number.isInteger(n) || n < 0 || !out || !Number.isInteger(seed)) {
    process.stderr.write("usage: node bench/gen-tools.mjs <n> <out.json> [seed]\n");
    process.exit(2);
  }
  writeFileSync(out, `${JSON.stringify(generateServerFile(n, seed), null, 2)}\n`);
}
