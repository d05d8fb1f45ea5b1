/** Keep a launched server's whole process tree from outliving the run: on Linux it starts in a PID namespace of its own (util-linux `unshare`); where that cannot be, only its process group and (on Linux) the /proc walk end it. */

import { spawn } from "node:child_process";
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** How this process starts servers: behind a launcher that gives each a PID namespace, or as they are (and why). */
export type Containment = { kind: "namespace"; launcher: string[] } | { kind: "group"; warning: string | null; why: string | null };

/** glibc's execvp search path when PATH is unset; the server's environment may lack PATH. */
const DEFAULT_PATH = "/bin:/usr/bin";

/**
 * The unshare flags. A PID namespace whose pid 1 is the server: when it exits, the kernel kills
 * every process left in the namespace, however it detached. `--kill-child`: the server is killed
 * if unshare dies. `--mount-proc`: the server's /proc shows only its namespace, so it cannot
 * reopen another process's fds (the Action's stdout) through it; `slave` still lets mounts made
 * on the host later reach it, and none of its own leave. As root no user namespace, which would
 * drop the server's real privileges; otherwise one that maps only the current user and group (not
 * --map-root-user: a server that refuses to run as root must not believe it is root).
 */
export function namespaceFlags(root: boolean): string[] {
  return [...(root ? [] : ["--user", "--map-current-user"]), "--pid", "--fork", "--kill-child", "--mount-proc", "--propagation", "slave"];
}

/**
 * The launcher argv put before a server's command. `setpriv --pdeathsig KILL` (when there is a
 * setpriv) ends unshare, and with it the namespace, even when mcp-lint itself is killed with
 * SIGKILL and its exit handlers never run.
 */
export function launcherArgv(unshare: string, setpriv: string | null, root: boolean): string[] {
  const inner = [unshare, ...namespaceFlags(root), "--"];
  return setpriv === null ? inner : [setpriv, "--pdeathsig", "KILL", "--", ...inner];
}

/** Where execvp would run `command` from on this PATH, or the errno it would fail with. */
export function findCommand(command: string, pathVariable: string | undefined): { path: string } | { code: "ENOENT" | "EACCES" } {
  if (command === "") return { code: "ENOENT" };
  const candidates = command.includes("/") ? [command] : (pathVariable ?? DEFAULT_PATH).split(delimiter).map((dir) => join(dir === "" ? "." : dir, command));
  // As execvp: a missing candidate is skipped; one that exists but cannot be run (a folder, no
  // execute bit, a folder on the way that may not be searched) makes the answer EACCES unless a
  // later one runs.
  let denied = false;
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) {
        denied = true;
        continue;
      }
      accessSync(candidate, constants.X_OK);
      return { path: candidate };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") denied = true;
    }
  }
  return { code: denied ? "EACCES" : "ENOENT" };
}

/** The warning printed once per run when servers start without a namespace. */
export function containmentWarning(why: string, hint: string): string {
  return `mcp-lint: warning: no PID namespace for the server (${why}); a server's descendants that leave its process tree may outlive this run (${hint})\n`;
}

const ACCEPT = "pass --no-pid-namespace to accept that";

/**
 * Why a probe of the launcher failed, as the `why` and `hint` of the warning. `apparmor`: this
 * kernel's AppArmor restricts unprivileged user namespaces (Ubuntu 24.04's default).
 */
export function probeProblem(code: number | null, stderr: string, root: boolean, apparmor = false): { why: string; hint: string } {
  if (/unrecognized option|invalid option|unknown option/.test(stderr)) {
    return { why: "this util-linux unshare lacks --kill-child or --map-current-user", hint: `util-linux 2.38 or newer has them, or ${ACCEPT}` };
  }
  if (/Operation not permitted|Permission denied/.test(stderr)) {
    if (root) return { why: "unshare may not create one here", hint: `a container needs CAP_SYS_ADMIN for it, or ${ACCEPT}` };
    return apparmor
      ? { why: "AppArmor restricts unprivileged user namespaces here", hint: `sysctl kernel.apparmor_restrict_unprivileged_userns=0 lifts that, or ${ACCEPT}` }
      : { why: "unprivileged user namespaces are not allowed here", hint: `allow them (sysctl), run as root, or ${ACCEPT}` };
  }
  return { why: `unshare failed with ${code === null ? "a signal" : `exit code ${code}`}`, hint: ACCEPT };
}

/** Run a launcher probe: its exit code and the start of what it wrote to stderr. */
function runProbe(argv: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    // An empty environment: the C locale, so unshare's messages are the English ones probeProblem reads.
    const child = spawn(argv[0] as string, argv.slice(1), { env: {}, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString("utf8");
    });
    child.once("error", (error) => done({ code: null, stderr: error.message }));
    child.once("close", (code) => done({ code, stderr }));
  });
}

async function decide(pathVariable: string | undefined): Promise<Containment> {
  if (process.platform !== "linux") return uncontained("PID namespaces are Linux only", ACCEPT);
  const unshare = findCommand("unshare", pathVariable);
  if (!("path" in unshare)) return uncontained("util-linux unshare is not on PATH", `install util-linux, or ${ACCEPT}`);
  const setpriv = findCommand("setpriv", pathVariable);
  const root = process.getuid?.() === 0;
  // The probe runs unshare itself inside the namespace: that proves the flags are known, the
  // namespaces may be made, /proc can be mounted and a command runs there (a few ms, once).
  const probe = (launcher: string[]) => runProbe([...launcher, unshare.path, "--version"]);
  const full = launcherArgv(unshare.path, "path" in setpriv ? setpriv.path : null, root);
  let result = await probe(full);
  if (result.code === 0) return { kind: "namespace", launcher: full };
  if ("path" in setpriv && result.stderr.startsWith("setpriv:")) {
    // A setpriv without --pdeathsig (util-linux before 2.33) need not cost the namespace.
    const plain = launcherArgv(unshare.path, null, root);
    result = await probe(plain);
    if (result.code === 0) return { kind: "namespace", launcher: plain };
  }
  const { why, hint } = probeProblem(result.code, result.stderr, root, !root && apparmorRestricts());
  return uncontained(why, hint);
}

function uncontained(why: string, hint: string): Containment {
  return { kind: "group", warning: containmentWarning(why, hint), why };
}

/**
 * How a server is started by a program that itself runs in a namespace from this launcher (an
 * agent that starts `mcp-lint proxy`): the launcher inside the launcher must work too. One probe.
 */
export async function nestedContainment(pathVariable: string | undefined): Promise<Containment> {
  const outer = await containmentFor(pathVariable);
  const unshare = findCommand("unshare", pathVariable);
  if (outer.kind !== "namespace" || !("path" in unshare)) return outer;
  const result = await runProbe([...outer.launcher, ...outer.launcher, unshare.path, "--version"]);
  if (result.code === 0) return outer;
  const root = process.getuid?.() === 0;
  const { why, hint } = probeProblem(result.code, result.stderr, root, !root && apparmorRestricts());
  return uncontained(`inside a namespace, ${why}`, hint);
}

/** Whether AppArmor keeps unprivileged user namespaces from getting capabilities (Ubuntu 23.10 and later). */
function apparmorRestricts(): boolean {
  try {
    return readFileSync("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "utf8").trim() === "1";
  } catch {
    return false;
  }
}

/** One decision per PATH, made on the first launch and kept for the rest of the process. */
const decided = new Map<string, Promise<Containment>>();

/** How servers whose environment has this PATH are started: probed once, then cached. */
export function containmentFor(pathVariable: string | undefined): Promise<Containment> {
  const key = pathVariable ?? "\0unset";
  let found = decided.get(key);
  if (found === undefined) {
    found = decide(pathVariable);
    decided.set(key, found);
  }
  return found;
}

let warned = false;

/** Print the warning of a launch without a namespace, once per process however many servers start. */
export function warnOnce(containment: Containment, warn: (line: string) => void): void {
  if (containment.kind !== "group" || containment.warning === null || warned) return;
  warned = true;
  warn(containment.warning);
}
