// How the Action starts mcp-lint so that nothing a server starts can outlive the step or reach the
// runner's output. Where mcp-lint can give each server a PID namespace of its own, it does, and
// mcp-lint runs as is. Where it cannot because unprivileged user namespaces are restricted (GitHub's
// hosted Ubuntu 24.04 runners: AppArmor), but sudo works without a password (it does on those
// runners), the Action makes one namespace for mcp-lint and its servers: sudo runs unshare as root,
// and setpriv turns back into the runner's user before mcp-lint starts, so neither mcp-lint nor a
// server ever runs as root. The namespace (with a /proc of its own, so nothing in it can see the
// runner's processes) ends with mcp-lint, and everything in it with it. Elsewhere mcp-lint runs as
// is and says in one warning line that it cannot contain its servers.
import { spawnSync } from "node:child_process";
import { containmentFor, findCommand, namespaceFlags } from "../dist/connect/containment.js";
import { isBasic } from "./env.mjs";

/** Variables sudo adds that the plan did not give mcp-lint. */
const SUDO_VARIABLES = ["SUDO_COMMAND", "SUDO_USER", "SUDO_UID", "SUDO_GID", "SUDO_HOME", "MAIL"];

/**
 * The command line that runs a command in a new PID namespace through sudo, as this user again.
 * `tools` are the absolute paths of sudo, unshare, setpriv and env. Secrets (pass-env and header-env
 * values) pass through sudo's environment by name, never on a command line (any process can read
 * one); sudo resets PATH and HOME, so the plain variables the plan holds (none of them secret) are
 * set again by env. Pure.
 */
export function sudoChain(env, ids, tools) {
  const secret = Object.keys(env).filter((name) => !isBasic(name));
  const plainValues = Object.entries(env)
    .filter(([name]) => isBasic(name))
    .map(([name, value]) => `${name}=${value}`);
  return [
    tools.sudo,
    "-n",
    ...(secret.length > 0 ? [`--preserve-env=${secret.join(",")}`] : []),
    "--",
    tools.unshare,
    ...namespaceFlags(true),
    "--",
    tools.setpriv,
    `--reuid=${ids.uid}`,
    `--regid=${ids.gid}`,
    "--init-groups",
    "--",
    tools.env,
    ...SUDO_VARIABLES.flatMap((name) => ["-u", name]),
    ...plainValues,
  ];
}

/**
 * How to start `node cli ...args`: `argv` goes before the CLI's own arguments, and `extraArgs`
 * after the subcommand. `how` says which way was taken: "mcp-lint" (it contains its servers
 * itself), "sudo" (the Action made the namespace) or "none" (mcp-lint warns).
 */
export async function cliLaunch(plan) {
  const plain = { argv: [process.execPath, plan.cli], extraArgs: [], how: "mcp-lint" };
  if (process.platform !== "linux" || process.getuid?.() === 0) return plain;
  if ((await containmentFor(plan.env.PATH)).kind === "namespace") return plain;
  const found = Object.fromEntries(["sudo", "unshare", "setpriv", "env"].map((name) => [name, findCommand(name, plan.env.PATH)]));
  if (!Object.values(found).every((tool) => "path" in tool)) return { ...plain, how: "none" };
  const tools = Object.fromEntries(Object.entries(found).map(([name, tool]) => [name, tool.path]));
  const prefix = sudoChain(plan.env, { uid: process.getuid(), gid: process.getgid() }, tools);
  // The same chain around `true` proves sudo needs no password and the namespace can be made.
  const probe = spawnSync(prefix[0], [...prefix.slice(1), "true"], { env: plan.env, stdio: "ignore", timeout: 20_000 });
  if (probe.status !== 0) return { ...plain, how: "none" };
  // Every server shares this namespace: mcp-lint need not (and, without a user namespace, cannot) make its own.
  return { argv: [...prefix, process.execPath, plan.cli], extraArgs: ["--no-pid-namespace"], how: "sudo" };
}
