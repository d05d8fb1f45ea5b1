// The `sarif` input's log, between the CLI and the workspace: checked for shape, and its file
// locations made relative to the workspace root (where upload-sarif resolves them) instead of to
// `working-directory` (where mcp-lint ran). Pure.

/** Why `log` is not a usable SARIF 2.1.0 log, or null. Like the JSON report, it is trusted for nothing else. */
export function sarifProblem(log) {
  if (log === null || typeof log !== "object" || Array.isArray(log)) return "it is not a JSON object";
  if (log.version !== "2.1.0") return "it is not SARIF 2.1.0";
  if (!Array.isArray(log.runs)) return "it has no runs";
  return null;
}

/**
 * The URI reference of `folder` (a relative path with `/` between segments, "" for the workspace
 * root), percent-encoded per segment the way mcp-lint writes artifact URIs, ending in `/`.
 */
export function folderUri(folder) {
  const segments = folder.split("/").filter((segment) => segment !== "" && segment !== ".");
  return segments.length === 0 ? "" : `${segments.map((segment) => encodeURIComponent(segment)).join("/")}/`;
}

/**
 * `log` with `prefix` (from {@link folderUri}) put before every relative artifact URI based on
 * `%SRCROOT%`; absolute URIs (`file:///...` for a lock outside the workspace) are left alone. A new
 * value: the input is not changed.
 */
export function rebaseSarif(log, prefix) {
  if (prefix === "") return log;
  // mcp-lint writes URIs from the git work tree root when there is one, which is where code
  // scanning resolves them: only a log based on the folder it ran in is moved to the workspace.
  const runs = log.runs.map((run) => (runBase(run) === "git-root" ? run : withoutBase(visit(run))));
  return { ...log, runs };

  function visit(value) {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== "object") return value;
    // A null-prototype copy: a `__proto__` key stays an ordinary key.
    const out = Object.create(null);
    for (const [key, inner] of Object.entries(value)) out[key] = visit(inner);
    const relativeUri = typeof out.uri === "string" && !/^[a-z][a-z0-9+.-]*:/i.test(out.uri) && !out.uri.startsWith("/");
    if (out.uriBaseId === "%SRCROOT%" && relativeUri) out.uri = `${prefix}${out.uri}`;
    return out;
  }
}

/** Which folder a run's relative URIs start from, as mcp-lint records it ("git-root" or "working-directory"), or null. */
function runBase(run) {
  const base = run?.originalUriBaseIds?.["%SRCROOT%"];
  const kind = base?.properties?.["mcpLint/base"];
  return typeof kind === "string" ? kind : null;
}

/** A rebased run no longer starts from the folder its base names; code scanning reads relative URIs from the repository root. */
function withoutBase(run) {
  if (run === null || typeof run !== "object" || run.originalUriBaseIds === undefined) return run;
  const { originalUriBaseIds: _dropped, ...rest } = run;
  return rest;
}

/** JSON with every character outside printable ASCII as a `\uXXXX` escape, as mcp-lint writes its files. */
export function asciiJson(value) {
  const text = JSON.stringify(value, null, 2).replace(/[^\x20-\x7e\n]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `${text}\n`;
}
