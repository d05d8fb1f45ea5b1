// The launcher of a contained server: its flags, where a command is found (as execvp would), how a
// failed probe is worded, and the fallback when unshare is not on PATH. Spawns nothing: a PATH
// without unshare is decided before any probe runs.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { containmentFor, findCommand, launcherArgv, namespaceFlags, nestedContainment, probeProblem, warnOnce } from "../../../src/connect/containment.js";

describe("namespaceFlags", () => {
  it("as root: a PID namespace with its own /proc, and no user namespace (the server keeps its privileges)", () => {
    expect(namespaceFlags(true)).toEqual(["--pid", "--fork", "--kill-child", "--mount-proc", "--propagation", "slave"]);
  });

  it("as another user: a user namespace that maps only that user, never root", () => {
    const flags = namespaceFlags(false);
    expect(flags.slice(0, 2)).toEqual(["--user", "--map-current-user"]);
    expect(flags).not.toContain("--map-root-user");
    expect(flags.slice(2)).toEqual(namespaceFlags(true));
  });
});

describe("launcherArgv", () => {
  it("puts setpriv --pdeathsig KILL in front when there is one, and ends each option list with --", () => {
    expect(launcherArgv("/usr/bin/unshare", "/usr/bin/setpriv", true)).toEqual([
      "/usr/bin/setpriv",
      "--pdeathsig",
      "KILL",
      "--",
      "/usr/bin/unshare",
      ...namespaceFlags(true),
      "--",
    ]);
    expect(launcherArgv("/bin/unshare", null, false)).toEqual(["/bin/unshare", ...namespaceFlags(false), "--"]);
  });
});

describe("findCommand", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-lint-find-"));
  const first = join(dir, "first");
  const second = join(dir, "second");
  mkdirSync(first);
  mkdirSync(second);
  mkdirSync(join(first, "folder"));
  writeFileSync(join(first, "plain"), "#!/bin/sh\n");
  chmodSync(join(first, "plain"), 0o644);
  writeFileSync(join(second, "plain"), "#!/bin/sh\n");
  chmodSync(join(second, "plain"), 0o755);
  writeFileSync(join(first, "only-plain"), "#!/bin/sh\n");
  chmodSync(join(first, "only-plain"), 0o644);
  const path = [first, second].join(delimiter);

  it.each([
    ["missing everywhere", "no-such-command", { code: "ENOENT" }],
    ["a file without the execute bit", "only-plain", { code: "EACCES" }],
    ["a folder", "folder", { code: "EACCES" }],
    ["a non-executable first, an executable later: the later one", "plain", { path: join(second, "plain") }],
    ["an empty name", "", { code: "ENOENT" }],
  ])("on PATH: %s", (_name, command, expected) => {
    expect(findCommand(command, path)).toEqual(expected);
  });

  it("a command with a slash is taken as a path, not looked up", () => {
    expect(findCommand(join(second, "plain"), "")).toEqual({ path: join(second, "plain") });
    expect(findCommand(join(first, "plain"), path)).toEqual({ code: "EACCES" });
    expect(findCommand(join(dir, "missing"), path)).toEqual({ code: "ENOENT" });
  });
});

describe("probeProblem", () => {
  it.each([
    ["an old util-linux", 1, "unshare: unrecognized option '--map-current-user'\n", false, /lacks --kill-child or --map-current-user/],
    ["user namespaces off", 1, "unshare: unshare failed: Operation not permitted\n", false, /unprivileged user namespaces are not allowed here/],
    ["root in a container", 1, "unshare: unshare failed: Operation not permitted\n", true, /may not create one here.*CAP_SYS_ADMIN/],
    [
      "AppArmor's restriction",
      1,
      "unshare: write failed /proc/self/uid_map: Operation not permitted\n",
      false,
      /AppArmor.*apparmor_restrict_unprivileged_userns=0/,
    ],
    ["anything else", 3, "", false, /unshare failed with exit code 3/],
  ])("%s", (name, code, stderr, root, expected) => {
    const { why, hint } = probeProblem(code, stderr, root, name === "AppArmor's restriction");
    expect(`${why} (${hint})`).toMatch(expected);
    expect(hint).toMatch(/--no-pid-namespace/);
  });
});

describe("containmentFor", () => {
  it("without unshare on PATH: the process group, with one warning line that says what is missing", async () => {
    const empty = mkdtempSync(join(tmpdir(), "mcp-lint-nopath-"));
    const decided = await containmentFor(empty);
    expect(decided.kind).toBe("group");
    const warning = decided.kind === "group" ? decided.warning : null;
    const expected =
      process.platform === "linux"
        ? "mcp-lint: warning: no PID namespace for the server (util-linux unshare is not on PATH); a server's descendants that leave its process tree may outlive this run (install util-linux, or pass --no-pid-namespace to accept that)\n"
        : "mcp-lint: warning: no PID namespace for the server (PID namespaces are Linux only); a server's descendants that leave its process tree may outlive this run (pass --no-pid-namespace to accept that)\n";
    expect(warning).toBe(expected);
    // Decided once per PATH.
    expect(containmentFor(empty)).toBe(containmentFor(empty));
    const lines: string[] = [];
    warnOnce(decided, (line) => lines.push(line));
    warnOnce(decided, (line) => lines.push(line));
    expect(lines).toEqual([expected]);
  });
});

describe("nestedContainment", () => {
  it("without unshare on PATH: the same decision as containmentFor, with why", async () => {
    const empty = mkdtempSync(join(tmpdir(), "mcp-lint-nopath-"));
    const decided = await nestedContainment(empty);
    expect(decided).toEqual(await containmentFor(empty));
    expect(decided.kind === "group" ? decided.why : null).toBe(
      process.platform === "linux" ? "util-linux unshare is not on PATH" : "PID namespaces are Linux only",
    );
  });
});
