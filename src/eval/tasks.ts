/**
 * The task set of `mcp-lint eval`: four MCP servers from npm that run offline, pinned, and tasks on
 * the sandbox (sandbox.ts) that each check an exact answer, a pattern or a file. Many are built so
 * that reading a whole result is over an agent's tool-output cap (Claude Code's is about 25,000
 * tokens, ~100,000 characters) while the proxy's pages get there. Pure.
 *
 * Prompts name paths relative to the agent's working folder, which is the run's copy of the
 * sandbox. Policies (what the tests' scripted model calls) name absolute paths as `...`,
 * filled in with `fillSandbox` like the servers' args and env.
 */

import { FACTS, projectFiles } from "./sandbox.js";
import type { EvalServer, EvalTask, ScriptedPolicy, TaskSet } from "./types.js";

/** The variable of the everything server that task every-release-channel asks about. */
const RELEASE_CHANNEL = "canary-eu-7";

/**
 * Feature-flag variables for the everything server: 24 of about 5,000 characters, so that its
 * `get-env` result is over 120,000 characters. Deterministic (a fixed linear congruential walk).
 */
function featureFlags(): Record<string, string> {
  const areas = ["checkout", "search", "payments", "profile", "cart", "orders", "shipping", "ledger"];
  const features = ["fuzzy", "v2", "beta", "dark_launch", "cache", "batching", "retry", "prefetch", "async", "compact"];
  let state = 12345;
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  const flags: Record<string, string> = {};
  for (let index = 1; index <= 24; index++) {
    const parts: string[] = [];
    let length = 0;
    while (length < 5000) {
      const part = `${areas[next(areas.length)]}.${features[next(features.length)]}_${next(1000)}=${["on", "off", "10pct", "50pct"][next(4)]}`;
      parts.push(part);
      length += part.length + 1;
    }
    flags[`FEATURE_FLAGS_${String(index).padStart(2, "0")}`] = parts.join(",");
  }
  return flags;
}

/** The servers. Each `entry` is the package's `bin`. */
export const EVAL_SERVERS: EvalServer[] = [
  {
    id: "filesystem",
    package: "@modelcontextprotocol/server-filesystem",
    version: "2026.1.14",
    entry: "dist/index.js",
    args: ["{sandbox}"],
    env: {},
    descriptions: "descriptions/filesystem.json",
  },
  {
    id: "memory",
    package: "@modelcontextprotocol/server-memory",
    version: "2026.1.26",
    entry: "dist/index.js",
    args: [],
    env: { MEMORY_FILE_PATH: "{sandbox}/memory.jsonl" },
    descriptions: "descriptions/memory.json",
  },
  {
    id: "everything",
    package: "@modelcontextprotocol/server-everything",
    version: "2026.1.26",
    entry: "dist/index.js",
    args: [],
    // RELEASE_CHANNEL first: behind the proxy the server's environment lists it right after the minimal one, on the first page.
    env: { RELEASE_CHANNEL, ...featureFlags() },
    descriptions: "descriptions/everything.json",
  },
  {
    id: "git",
    package: "@cyanheads/git-mcp-server",
    version: "2.15.3",
    entry: "dist/index.js",
    args: [],
    // stdio, no log files, no commit signing, and git confined to the sandbox.
    env: { MCP_TRANSPORT_TYPE: "stdio", MCP_LOG_LEVEL: "error", GIT_BASE_DIR: "{sandbox}", GIT_SIGN_COMMITS: "false" },
    descriptions: "descriptions/git.json",
  },
];

/**
 * Every variable a server of the task set may be given: those the servers above take, and no
 * other. `eval --run` refuses a tasks.json whose `env` names another (trust.ts).
 */
export const EVAL_SERVER_VARIABLES: readonly string[] = [
  "MEMORY_FILE_PATH",
  "RELEASE_CHANNEL",
  ...Array.from({ length: 24 }, (_, index) => `FEATURE_FLAGS_${String(index + 1).padStart(2, "0")}`),
  "MCP_TRANSPORT_TYPE",
  "MCP_LOG_LEVEL",
  "GIT_BASE_DIR",
  "GIT_SIGN_COMMITS",
];

/**
 * An answer pattern for the last line of a result (group 1 inside `line`), on the whole text or on
 * the proxy's last page (the line before a note that ends at the total). Lines of `line` must not
 * hold groups of their own besides the first.
 */
function lastLine(line: string): string {
  // No `$`: the pattern must mean the same with the `m` flag, so the end is "only whitespace is left" or the closing note.
  return `(?:^|\\n)(?!\\[showing lines )${line}\\n?(?=\\[showing lines \\d+-(?<end>\\d+) of \\k<end>\\]|\\s*(?![\\s\\S]))`;
}

function policy(tool: string, args: Record<string, unknown>, seek: ScriptedPolicy["seek"], answer: string): ScriptedPolicy {
  return { tool, arguments: args, seek, answer };
}

const APP_LOG = "logs/app.log";
const REPO = "repo";
/** Every file under projects/, as read_multiple_files takes them. */
const PROJECT_PATHS = [...projectFiles().keys()];

/** The tasks. Those in EVAL_OVERFLOW_TASKS have a whole result over 100,000 characters. */
export const EVAL_TASKS: EvalTask[] = [
  // ---- filesystem
  {
    id: "fs-app-log-last-line",
    server: "filesystem",
    split: "test",
    prompt: "What is the last line of logs/app.log? Quote it exactly.",
    check: { kind: "exact", answer: FACTS.appLogLastLine },
    policy: policy("read_text_file", { path: APP_LOG }, "last", lastLine("([^\\n]+)")),
  },
  {
    id: "fs-app-log-line-15000",
    server: "filesystem",
    split: "test",
    prompt: "What is the request id (the req= value) on line 15,000 of logs/app.log?",
    check: { kind: "exact", answer: FACTS.appLogLine15000Id },
    policy: policy("read_text_file", { path: APP_LOG, head: 15_000 }, "last", lastLine("[^\\n]*req=([0-9a-f]{8})[^\\n]*")),
  },
  {
    id: "fs-deploy-final-release",
    server: "filesystem",
    split: "test",
    prompt: "Which release was running on the hosts when the deploy recorded in logs/deploy.log finished?",
    check: { kind: "pattern", pattern: `${FACTS.deployFinalRelease.replaceAll(".", "\\.")}(?![0-9])` },
    policy: policy("read_text_file", { path: "logs/deploy.log" }, "last", "rolled back to release (\\d+\\.\\d+\\.\\d+)"),
  },
  {
    id: "fs-billing-port",
    server: "filesystem",
    split: "test",
    prompt: "Which port does the billing service listen on? The services' files are under projects/.",
    check: { kind: "pattern", pattern: `\\b${FACTS.billingPort}\\b` },
    policy: policy("read_text_file", { path: "projects/payments/billing/config.json" }, "next", '"port":\\s*(\\d+)'),
  },
  {
    id: "fs-codename-file",
    server: "filesystem",
    split: "test",
    prompt: `Which file under projects/ mentions the codename "${FACTS.codename}"? Give its path.`,
    check: { kind: "pattern", pattern: FACTS.codenameFile.replace(/^projects\//, "").replaceAll(".", "\\.") },
    policy: policy(
      "read_multiple_files",
      { paths: PROJECT_PATHS },
      "next",
      `(?:^|\\n)([^\\n]+\\.md):\\n(?:(?!---\\n)[^\\n]*\\n)*?[^\\n]*\\b${FACTS.codename}\\b`,
    ),
  },
  {
    id: "fs-retention-days",
    server: "filesystem",
    split: "test",
    prompt: "For how many days are raw events kept, according to the data retention policy somewhere under projects/?",
    check: { kind: "pattern", pattern: `\\b${FACTS.retentionDays}\\b` },
    policy: policy("read_text_file", { path: FACTS.retentionFile }, "next", "kept for (\\d+) days"),
  },
  {
    id: "fs-write-checklist",
    server: "filesystem",
    split: "test",
    prompt: "Create the file notes/release-checklist.md. Its first line must read exactly: # Release checklist for 2.15.0",
    check: { kind: "file", path: "notes/release-checklist.md", contains: "# Release checklist for 2.15.0" },
    policy: policy(
      "write_file",
      { path: "notes/release-checklist.md", content: "# Release checklist for 2.15.0\n\n- [ ] Tag the release\n- [ ] Update the changelog\n" },
      "next",
      "(Successfully wrote to [^\\n]+)",
    ),
  },
  {
    id: "fs-app-log-shutdown-time",
    server: "filesystem",
    split: "train",
    prompt: "At what time (UTC, hh:mm:ss) did the service that writes logs/app.log shut down?",
    check: { kind: "exact", answer: FACTS.appLogShutdownTime },
    policy: policy("read_text_file", { path: APP_LOG }, "last", lastLine("[^\\n]*T(\\d\\d:\\d\\d:\\d\\d)\\.\\d{3}Z[^\\n]*shutdown complete[^\\n]*")),
  },
  {
    id: "fs-edit-replicas",
    server: "filesystem",
    split: "train",
    prompt: "In config/service.yaml, change the number of replicas from 3 to 5 and leave everything else as it is.",
    check: { kind: "file", path: "config/service.yaml", contains: "  replicas: 5\n" },
    policy: policy(
      "edit_file",
      { path: "config/service.yaml", edits: [{ oldText: "  replicas: 3", newText: "  replicas: 5" }] },
      "next",
      "(\\+\\s*replicas: 5)",
    ),
  },
  {
    id: "fs-find-retention-policy",
    server: "filesystem",
    split: "train",
    prompt: "Where under projects/ is the file named retention-policy.md? Give its path.",
    check: { kind: "pattern", pattern: FACTS.retentionFile.replace(/^projects\//, "").replaceAll(".", "\\.") },
    policy: policy("search_files", { path: "projects", pattern: "**/retention-policy.md" }, "next", "([^\\n]*retention-policy\\.md)"),
  },
  // ---- memory
  {
    id: "mem-manager",
    server: "memory",
    split: "test",
    prompt: `According to the knowledge graph, who does ${FACTS.memoryPerson} report to?`,
    check: { kind: "exact", answer: FACTS.memoryManager },
    policy: policy("read_graph", {}, "last", `"from":\\s*"${FACTS.memoryPerson}",\\s*"to":\\s*"([^"]+)",\\s*"relationType":\\s*"reports_to"`),
  },
  {
    id: "mem-project-lead",
    server: "memory",
    split: "test",
    prompt: `Who leads ${FACTS.memoryProject}, according to the knowledge graph?`,
    check: { kind: "exact", answer: FACTS.memoryProjectLead },
    policy: policy("read_graph", {}, "last", `"from":\\s*"([^"]+)",\\s*"to":\\s*"${FACTS.memoryProject}",\\s*"relationType":\\s*"leads"`),
  },
  {
    id: "mem-office",
    server: "memory",
    split: "test",
    prompt: `Which office does ${FACTS.memoryPerson} work from, according to the knowledge graph?`,
    check: { kind: "exact", answer: FACTS.memoryPersonOffice },
    policy: policy("open_nodes", { names: [FACTS.memoryPerson] }, "next", '"Office: ([^"]+)"'),
  },
  {
    id: "mem-add-person",
    server: "memory",
    split: "test",
    prompt:
      'Add a new person to the knowledge graph: Ada Quinlan, entity type "person", who works from the Reykjavik office (record that as the observation "Office: Reykjavik").',
    check: { kind: "file", path: "memory.jsonl", contains: '{"type":"entity","name":"Ada Quinlan","entityType":"person"' },
    policy: policy(
      "create_entities",
      { entities: [{ name: "Ada Quinlan", entityType: "person", observations: ["Office: Reykjavik"] }] },
      "next",
      '"name":\\s*"(Ada Quinlan)"',
    ),
  },
  {
    id: "mem-add-mentor-relation",
    server: "memory",
    split: "test",
    prompt: `Record in the knowledge graph that ${FACTS.memoryPerson} mentors ${FACTS.memoryManager}, as a relation of type "mentors".`,
    check: {
      kind: "file",
      path: "memory.jsonl",
      contains: JSON.stringify({ type: "relation", from: FACTS.memoryPerson, to: FACTS.memoryManager, relationType: "mentors" }),
    },
    policy: policy(
      "create_relations",
      { relations: [{ from: FACTS.memoryPerson, to: FACTS.memoryManager, relationType: "mentors" }] },
      "next",
      '"relationType":\\s*"(mentors)"',
    ),
  },
  {
    id: "mem-add-observation",
    server: "memory",
    split: "train",
    prompt: `Note in the knowledge graph that ${FACTS.memoryManager} is a certified scuba diver: add the observation "Certified scuba diver" to that person.`,
    check: { kind: "file", path: "memory.jsonl", contains: '"Certified scuba diver"' },
    policy: policy(
      "add_observations",
      { observations: [{ entityName: FACTS.memoryManager, contents: ["Certified scuba diver"] }] },
      "next",
      '"(Certified scuba diver)"',
    ),
  },
  // ---- everything
  {
    id: "every-release-channel",
    server: "everything",
    split: "test",
    prompt: "What is the value of the RELEASE_CHANNEL environment variable that the MCP server runs with?",
    check: { kind: "exact", answer: RELEASE_CHANNEL },
    policy: policy("get-env", {}, "next", '"RELEASE_CHANNEL":\\s*"([^"]*)"'),
  },
  {
    id: "every-sum",
    server: "everything",
    split: "test",
    prompt: "Use the MCP server's tool to add 48213 and 90377. What is the sum?",
    check: { kind: "pattern", pattern: "138,?590" },
    policy: policy("get-sum", { a: 48_213, b: 90_377 }, "next", "is (-?\\d+(?:\\.\\d+)?)"),
  },
  {
    id: "every-weather",
    server: "everything",
    split: "test",
    prompt: "What weather conditions does the MCP server report for Chicago?",
    check: { kind: "pattern", pattern: "drizzle|light rain", flags: "i" },
    policy: policy("get-structured-content", { location: "Chicago" }, "next", '"conditions":"([^"]+)"'),
  },
  {
    id: "every-long-operation",
    server: "everything",
    split: "test",
    prompt:
      "Start the MCP server's long-running operation with a duration of 3 seconds in 3 steps, wait for it to finish, and quote its completion message word for word.",
    check: { kind: "pattern", pattern: "long running operation completed", flags: "i" },
    policy: policy("trigger-long-running-operation", { duration: 3, steps: 3 }, "next", "(Long running operation completed[^\\n]*)"),
  },
  {
    id: "every-resource-uri",
    server: "everything",
    split: "train",
    prompt: "Get a reference to the MCP server's text resource number 7. At which URI can it be read?",
    check: { kind: "exact", answer: "demo://resource/dynamic/text/7" },
    policy: policy("get-resource-reference", { resourceType: "Text", resourceId: 7 }, "next", "URI: (\\S+)"),
  },
  // ---- git
  {
    id: "git-first-commit",
    server: "git",
    split: "test",
    prompt: "What is the subject line of the very first commit in the git repository repo/?",
    check: { kind: "exact", answer: FACTS.gitFirstSubject },
    policy: policy("git_log", { path: REPO, maxCount: 1000 }, "last", '"subject":\\s*"([^"]*)",\\s*"parents":\\s*\\[\\]'),
  },
  {
    id: "git-settings-last-line-author",
    server: "git",
    split: "test",
    prompt: "In the git repository repo/, who last changed the final line of src/settings.py?",
    check: { kind: "exact", answer: FACTS.gitSettingsLastLineAuthor },
    policy: policy(
      "git_blame",
      { path: REPO, filePath: "src/settings.py" },
      "last",
      '"author":\\s*"([^"]+)",\\s*"timestamp":\\s*\\d+,\\s*"content":\\s*"[^"\\n]*"\\s*\\}\\s*\\],\\s*"totalLines"',
    ),
  },
  {
    id: "git-ticket-author",
    server: "git",
    split: "test",
    prompt: `Who authored the commit that fixed ticket ${FACTS.gitTicket} in the git repository repo/?`,
    check: { kind: "exact", answer: FACTS.gitTicketAuthor },
    policy: policy("git_log", { path: REPO, grep: FACTS.gitTicket }, "next", '"author":\\s*"([^"]+)"'),
  },
  {
    id: "git-readme-last-author",
    server: "git",
    split: "test",
    prompt: "Who made the most recent change to README.md in the git repository repo/?",
    check: { kind: "exact", answer: FACTS.gitReadmeAuthor },
    policy: policy("git_log", { path: REPO, filePath: "README.md", maxCount: 1 }, "next", '"author":\\s*"([^"]+)"'),
  },
  {
    id: "git-tag-headline",
    server: "git",
    split: "test",
    prompt: `What headline does the release note of tag ${FACTS.gitTag} in the git repository repo/ give?`,
    check: { kind: "pattern", pattern: "multi-currency settlement", flags: "i" },
    policy: policy("git_show", { path: REPO, object: FACTS.gitTag }, "next", "Headline: ([^.\\\\\\n]+)"),
  },
  {
    id: "git-commit-count",
    server: "git",
    split: "train",
    prompt: "How many commits are there in the history of the git repository repo/?",
    check: { kind: "pattern", pattern: `\\b${FACTS.gitCommits}\\b` },
    policy: policy("git_log", { path: REPO, maxCount: 1000 }, "last", '"totalCount":\\s*(\\d+)'),
  },
  {
    id: "git-settings-line-1203",
    server: "git",
    split: "train",
    prompt: "In the git repository repo/, who last changed line 1203 of src/settings.py?",
    check: { kind: "exact", answer: FACTS.gitSettingsLine1203Author },
    policy: policy("git_blame", { path: REPO, filePath: "src/settings.py", startLine: 1203, endLine: 1203 }, "next", '"author":\\s*"([^"]+)"'),
  },
];

/**
 * The tasks whose whole result is over 100,000 characters: a scripted agent with that cap fails
 * them directly and gets there through the proxy's pages.
 */
export const EVAL_OVERFLOW_TASKS: readonly string[] = [
  "fs-app-log-last-line",
  "fs-app-log-line-15000",
  "fs-app-log-shutdown-time",
  "mem-manager",
  "mem-project-lead",
  "every-release-channel",
  "git-first-commit",
  "git-commit-count",
];

/** The task set `eval --setup` writes. */
export function taskSet(): TaskSet {
  return { version: 1, servers: structuredClone(EVAL_SERVERS), tasks: structuredClone(EVAL_TASKS) };
}

const PAGED = "Long results come in pages of about 2,000 tokens ending with a note; pass offset (lines to skip) and limit (lines) to read further.";

/**
 * The proxy's `--descriptions` files: for each server, the tools mcp-lint's S1 rule flags as too
 * short, and the ones the tasks use, each saying what it returns, how long that can be, and how to
 * page (only true behind the proxy, which is the only place these are served).
 */
export const EVAL_DESCRIPTIONS: Record<string, Record<string, string>> = {
  filesystem: {
    read_file: `Deprecated alias of read_text_file: returns a text file's whole content (or its first head / last tail lines). A large file can be megabytes. ${PAGED}`,
    read_text_file: `Returns a text file's content within the allowed folders; head=N gives only the first N lines, tail=N only the last N. Whole files can be megabytes: prefer head or tail, or read by pages. ${PAGED}`,
    read_multiple_files: `Returns the content of several files at once, each after its path and a colon, files separated by lines of ---. Failed reads are reported per file. ${PAGED}`,
    search_files: `Finds files and folders whose path matches a glob pattern (**/*.md) below a folder and returns their full paths, one a line; it does not search file contents. ${PAGED}`,
    directory_tree: `Returns the whole tree below a folder as indented JSON (name, type, children); deep folders give very long results, so exclude what you do not need. ${PAGED}`,
    list_directory: `Lists one folder's entries, one a line, each marked [FILE] or [DIR]; not recursive. ${PAGED}`,
    write_file:
      "Creates a file or overwrites it completely with the given text (no warning when it exists); the parent folder must exist. Returns one line saying where it wrote.",
    edit_file:
      "Replaces text in a file: each edit's oldText must match exactly (or line by line, ignoring indentation). Returns a git-style diff of the change; dryRun=true shows it without writing.",
  },
  memory: {
    create_entities:
      "Adds entities (name, entityType, observations) to the knowledge graph and returns the ones it created as JSON; a name that already exists is skipped.",
    create_relations:
      "Adds directed relations (from, to, relationType in active voice, such as reports_to) between entities and returns the new ones as JSON; duplicates are skipped.",
    add_observations:
      "Adds observation strings to existing entities and returns, per entity, the observations it added; fails for an entity name that does not exist.",
    delete_entities: "Deletes the named entities and every relation to or from them from the knowledge graph. Returns a one-line confirmation.",
    delete_observations:
      "Deletes the given observation strings from the named entities; observations that are not there are ignored. Returns a one-line confirmation.",
    delete_relations:
      "Deletes the relations that match from, to and relationType exactly. Returns a one-line confirmation; relations that do not exist are ignored.",
    read_graph: `Returns the whole knowledge graph as JSON: all entities with their observations, then all relations (from, to, relationType). A large graph is hundreds of thousands of characters. ${PAGED}`,
    search_nodes: `Returns the entities whose name, type or observations contain the query (case-insensitive), and only the relations between those entities, as JSON. ${PAGED}`,
    open_nodes: `Returns the named entities with their observations, and only the relations among them, as JSON; to find an entity's relations to others, read the graph. ${PAGED}`,
  },
  everything: {
    echo: "Returns the message it is given, prefixed with 'Echo: ', as one text block; useful to test that calls reach the server.",
    "get-annotated-message":
      "Returns a sample message of the given type (error, success or debug) with MCP content annotations (audience, priority), and an image when includeImage is true.",
    "get-env": `Returns every environment variable of the server process as one JSON object, one variable a line; with large variables this is over 100,000 characters. ${PAGED}`,
    "get-resource-links": "Returns a short text and up to ten resource links (count, 1-10) to the server's sample text and blob resources, each with its URI.",
    "get-resource-reference":
      "Returns one of the server's sample resources (Text or Blob, by number) embedded in the result, with a line giving the URI to read it at.",
    "get-structured-content":
      "Returns sample weather (temperature in Celsius, conditions, humidity) for New York, Chicago or Los Angeles, as JSON text and as structured content.",
    "get-sum": "Adds two numbers a and b and returns one sentence with the result, such as 'The sum of 2 and 3 is 5.'",
    "get-tiny-image": "Returns a tiny PNG image of the MCP logo (base64, image/png) between two short text blocks; useful to test image content.",
    "toggle-simulated-logging":
      "Turns the server's simulated log messages (random levels, sent every few seconds) on or off for this session and says which it is now.",
    "toggle-subscriber-updates": "Turns simulated update notifications for subscribed resources on or off for this session and says which it is now.",
    "trigger-long-running-operation":
      "Runs a simulated operation for duration seconds in the given number of steps, sending progress notifications, and returns one completion line when done.",
  },
  git: {
    git_status: `Shows the working tree status of a repository: the current branch, staged, unstaged and (by default) untracked files, as JSON. ${PAGED}`,
    git_diff: `Shows the differences between commits, branches or the working tree in unified diff format; nameOnly or stat give a short summary instead of the full diff. ${PAGED}`,
    git_log: `Returns commits as JSON (hash, author, timestamp, subject, parents, body), newest first, at most maxCount (default 10, up to 1000); filter with author, grep, since, until or filePath. ${PAGED}`,
    git_blame: `Returns who last changed each line of a file, as JSON entries (commit, line number, author, timestamp, content); startLine and endLine limit it to a range. ${PAGED}`,
    git_show: `Shows a commit, tag, tree or file at a revision: for a tag, its message followed by the commit and its diff. Diffs can be long. ${PAGED}`,
    git_fetch: "Fetches objects and references from a remote repository (default origin) without merging them; needs network access to the remote.",
    git_pull:
      "Fetches from a remote and integrates the changes into the current branch by merge, or by rebase when rebase is true; needs network access to the remote.",
    git_push:
      "Pushes local commits (and, when asked, tags) to a remote branch; force, delete and protected branches need explicit flags. Needs network access to the remote.",
  },
};
