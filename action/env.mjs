// The environment the Action gives mcp-lint: the few variables it needs and those the inputs name,
// never the job's other variables. Pure.

// What mcp-lint, npx and the SDK's default server environment need on Linux, macOS and Windows:
// the search path, home and user, locale, temporary folders, and certificate files (paths, not secrets).
const BASICS = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TERM",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "TMP",
  "TEMP",
  "RUNNER_TEMP",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  // Windows (the SDK's default environment there, and what finds npx.cmd)
  "APPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PATHEXT",
  "COMSPEC",
  "PROCESSOR_ARCHITECTURE",
  "PROGRAMFILES",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "USERNAME",
  "USERPROFILE",
];
const LOCALE = /^LC_[A-Z]+$/;
// Only a remote check connects through a proxy, and then no server process runs beside mcp-lint to
// read them. A stdio server that needs a proxy gets it through pass-env, like any other variable.
const PROXY = ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"];

/** Whether a variable is one of the basics (never a secret: paths, user, locale), not one an input named. */
export function isBasic(name) {
  return BASICS.includes(name) || BASICS.includes(name.toUpperCase()) || LOCALE.test(name);
}

/**
 * The variables of `env` that mcp-lint may see: the basics above, proxies for a `url` check, and the
 * variables named by `header-env` (the VAR of each `Name=VAR`) and `pass-env`.
 */
export function cliEnvironment(env, { headerEnv = [], passEnv = [], remote = false } = {}) {
  const wanted = new Set([...BASICS, ...passEnv]);
  for (const pair of headerEnv) {
    const equals = pair.indexOf("=");
    if (equals > 0) wanted.add(pair.slice(equals + 1).trim());
  }
  if (remote) for (const name of PROXY) wanted.add(name);
  const out = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    // Windows spells some of them Path, ComSpec, SystemRoot: names there are case-insensitive.
    if (wanted.has(name) || isBasic(name)) out[name] = value;
  }
  return out;
}
