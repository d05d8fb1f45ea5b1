// The Action on a runner like GitHub's hosted Ubuntu 24.04: the job runs as a user with
// passwordless sudo, and AppArmor refuses unprivileged user namespaces, so mcp-lint cannot give
// its servers a PID namespace by itself. The Action then makes one for mcp-lint through sudo and
// turns back into the job's user at once: a double-forked grandchild neither outlives the step nor
// reaches the runner's output. The machine is set up by .ci/run (a user `mcplint-runner` with
// NOPASSWD sudo); the AppArmor refusal is an `unshare` on PATH that fails for --user as
// AppArmor makes it fail, and passes everything else to the real one.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sudoChain } from "../../action/contain.mjs";
import { annotations, type RunnerUser, runAction } from "./action-harness.js";
import { cliPath, pathWithout, tempDir } from "./helpers.js";
import { fixture, killMarked, markedProcesses } from "../fixtures/servers/live/harness.js";

const node = process.execPath;

function runnerUser(): RunnerUser | null {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return null;
  const id = spawnSync("id", ["-u", "mcplint-runner"], { encoding: "utf8" });
  if (id.status !== 0) return null;
  const uid = Number(id.stdout.trim());
  const gid = Number(spawnSync("id", ["-g", "mcplint-runner"], { encoding: "utf8" }).stdout.trim());
  const home = spawnSync("sh", ["-c", "getent passwd mcplint-runner | cut -d: -f6"], { encoding: "utf8" }).stdout.trim();
  const sudo = spawnSync("setpriv", [`--reuid=${uid}`, `--regid=${gid}`, "--init-groups", "--", "sudo", "-n", "true"], { stdio: "ignore" });
  const reads = spawnSync("setpriv", [`--reuid=${uid}`, `--regid=${gid}`, "--init-groups", "--", node, cliPath, "--version"], { stdio: "ignore" });
  return sudo.status === 0 && reads.status === 0 ? { name: "mcplint-runner", uid, gid, home } : null;
}
const user = runnerUser();

/** A PATH like the job's, whose unshare refuses user namespaces as AppArmor does on hosted runners. */
function apparmorPath(): string {
  const bin = pathWithout(["unshare"]);
  const real = spawnSync("sh", ["-c", "command -v unshare"], { encoding: "utf8" }).stdout.trim();
  writeFileSync(
    join(bin, "unshare"),
    `#!/bin/sh\nfor arg in "$@"; do\n  [ "$arg" = "--" ] && break\n  if [ "$arg" = "--user" ]; then echo "unshare: write failed /proc/self/uid_map: Operation not permitted" >&2; exit 1; fi\ndone\nexec ${real} "$@"\n`,
  );
  chmodSync(join(bin, "unshare"), 0o755);
  // The job's user must reach it (a temporary folder is private to its creator).
  chmodSync(dirname(bin), 0o755);
  return bin;
}

const markers: string[] = [];
afterEach(() => killMarked(markers.splice(0)));

describe("the Action makes the namespace itself where mcp-lint cannot (sudo, as on hosted runners)", () => {
  it("builds the sudo chain with secrets passed by name only, never on the command line", () => {
    const chain = sudoChain(
      { PATH: "/usr/bin:/bin", HOME: "/home/runner", SERVER_TOKEN: "sk-live-secret-value", LC_ALL: "C" },
      { uid: 1001, gid: 118 },
      { sudo: "/usr/bin/sudo", unshare: "/usr/bin/unshare", setpriv: "/usr/bin/setpriv", env: "/usr/bin/env" },
    );
    expect(chain.join(" ")).not.toContain("sk-live-secret-value");
    expect(chain).toContain("--preserve-env=SERVER_TOKEN");
    expect(chain).toEqual(expect.arrayContaining(["--reuid=1001", "--regid=118", "--init-groups", "PATH=/usr/bin:/bin", "HOME=/home/runner", "LC_ALL=C"]));
    // No user namespace inside sudo: root makes it, setpriv turns back before anything else runs.
    expect(chain).not.toContain("--user");
    expect(chain.indexOf("/usr/bin/setpriv")).toBeGreaterThan(chain.indexOf("/usr/bin/unshare"));
  });

  it.runIf(user !== null)("as a sudo user without user namespaces: the grandchild never reaches the runner's output and nothing is left", () => {
    const runner = user as RunnerUser;
    const workspace = tempDir();
    markers.push(workspace);
    chownSync(workspace, runner.uid, runner.gid);
    const path = apparmorPath();
    const asRunner = (args: string[]) =>
      spawnSync("setpriv", [`--reuid=${runner.uid}`, `--regid=${runner.gid}`, "--init-groups", "--", ...args], {
        cwd: workspace,
        encoding: "utf8",
        env: { PATH: path, HOME: runner.home },
      });
    // mcp-lint alone cannot contain the server here: it says so.
    const locked = asRunner([node, cliPath, "lock", "--", "node", fixture("double-fork.mjs"), workspace]);
    expect(locked.status, locked.stderr).toBe(0);
    expect(locked.stderr).toContain("mcp-lint: warning: no PID namespace for the server (unprivileged user namespaces are not allowed here)");
    killMarked([workspace]);
    rmSync(join(workspace, "grandchild-started"));

    const result = runAction({ command: `node "${fixture("double-fork.mjs")}" "${workspace}"` }, { PATH: path }, workspace, { user: runner });
    expect(result.status, result.stdout).toBe(0);
    expect(existsSync(join(workspace, "grandchild-started"))).toBe(true);
    expect(markedProcesses(workspace)).toEqual([]);
    expect(result.stdout).not.toContain("survivor");
    expect(result.stdout).not.toContain("no PID namespace");
    expect(annotations(result.runner)).toEqual([]);
    // mcp-lint and the server ran as the job's user, never as root.
    expect(readFileSync(join(workspace, "grandchild-started"), "utf8")).not.toBe("");
    const owner = spawnSync("stat", ["-c", "%u", join(workspace, "grandchild-started")], { encoding: "utf8" }).stdout.trim();
    expect(Number(owner)).toBe(runner.uid);
  });
});
