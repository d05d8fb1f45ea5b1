// Parser pieces: command names, shell splitting, the flag walker, wrappers, display safety, and messages.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { walkFlags, flagSet } from "../../../src/install/flags.js";
import {
  INSTALL_KIND_NAMES,
  INSTALL_KINDS,
  type InstallFinding,
  installMessage,
  lintLaunch,
  lintShellString,
  loadKnownBad,
} from "../../../src/install/index.js";
import { installFinding, type InstallReason } from "../../../src/install/kinds.js";
import { LAUNCHERS } from "../../../src/install/launchers/index.js";
import { MAX_WRAPPER_DEPTH } from "../../../src/install/lint.js";
import { commandName, safeDisplay, splitScript } from "../../../src/install/tokens.js";
import { WRAPPERS } from "../../../src/install/wrappers/index.js";

const knownBad = loadKnownBad();

describe("commandName", () => {
  it.each([
    ["npx", "npx"],
    ["/usr/local/bin/npx", "npx"],
    ["C:\\Program Files\\nodejs\\npx.cmd", "npx"],
    ["C:\\Users\\u\\.local\\bin\\UVX.EXE", "uvx"],
    ["python3.12", "python"],
    ["pip3", "pip"],
    ["pwsh.exe", "pwsh"],
  ])("%s -> %s", (token, name) => {
    expect(commandName(token)).toBe(name);
  });
});

describe("splitScript", () => {
  it("splits sequences and keeps # inside words", () => {
    expect(splitScript("cd /x && npx -y github:a/b#abc ; uvx c # comment", "posix")).toEqual({
      commands: [
        ["cd", "/x"],
        ["npx", "-y", "github:a/b#abc"],
        ["uvx", "c"],
      ],
      problems: [],
    });
  });

  it("keeps variables as written", () => {
    expect(splitScript("npx -y $PKG ${VER}", "posix").commands).toEqual([["npx", "-y", "${PKG}", "${VER}"]]);
  });

  it("drops redirects and their targets", () => {
    expect(splitScript("npx -y foo > /tmp/log 2>&1", "posix").commands).toEqual([["npx", "-y", "foo"]]);
  });

  it.each([
    ["npx 'foo", "unsplittable"],
    ["npx $(cat x)", "substitution"],
    ["npx `cat x`", "substitution"],
    ["while true; do npx foo; done", "control_flow"],
    ["(npx foo)", "control_flow"],
    ["curl x | sh", "pipeline"],
  ])("%s -> %s", (script, problem) => {
    expect(splitScript(script, "posix").problems).toEqual([problem]);
  });

  it("reads cmd lines with backslash paths", () => {
    expect(splitScript("C:\\tools\\uvx.exe mcp-server-fetch", "cmd").commands).toEqual([["C:\\tools\\uvx.exe", "mcp-server-fetch"]]);
  });
});

describe("walkFlags", () => {
  const table = { values: flagSet("-e --env -p --package"), booleans: flagSet("-i -t --rm") };
  it("walks short clusters: the first value flag takes the rest or the next token", () => {
    expect(walkFlags(["-it", "img"], table).rest).toEqual(["img"]);
    expect(walkFlags(["-ie", "NAME", "img"], table)).toMatchObject({ values: [{ flag: "-e", value: "NAME" }], rest: ["img"] });
    expect(walkFlags(["-eNAME=1", "img"], table)).toMatchObject({ values: [{ flag: "-e", value: "NAME=1" }], rest: ["img"] });
  });

  it("treats --long=value as self-contained even when unknown, and stops at an unknown flag without =", () => {
    expect(walkFlags(["--weird=1", "img"], table).rest).toEqual(["img"]);
    expect(walkFlags(["--weird", "1", "img"], table)).toMatchObject({ unknown: "--weird", rest: [] });
  });

  it("reads options anywhere when interleaved, until --", () => {
    expect(walkFlags(["a", "--package=b", "c", "--", "-d"], table, true)).toMatchObject({
      positionals: ["a", "c"],
      rest: ["-d"],
      values: [{ flag: "--package", value: "b" }],
    });
  });
});

describe("registry", () => {
  it("each command name belongs to one handler", () => {
    const names = [...WRAPPERS, ...LAUNCHERS].flatMap((handler) => handler.commands);
    expect(new Set(names).size).toBe(names.length);
  });

  it("stops following wrappers past the depth limit", () => {
    let argv = ["npx", "-y", "foo"];
    for (let i = 0; i <= MAX_WRAPPER_DEPTH + 1; i++) argv = ["env", ...argv];
    expect(lintLaunch(argv, knownBad).map((finding) => finding.args.reason)).toEqual(["too_deep"]);
  });

  it("never throws on odd input", () => {
    for (const argv of [[], [""], ["npx"], ["docker"], ["docker", "run"], ["cmd", "/c"], ["sh", "-c"], ["env"], ["powershell", "-Command"], ["uv"], ["pip"]]) {
      expect(() => lintLaunch(argv, knownBad)).not.toThrow();
    }
    expect(lintShellString("", knownBad)).toEqual([]);
  });
});

describe("display", () => {
  it("removes credentials and query strings from URLs and escapes invisible characters", () => {
    expect(safeDisplay("git+https://user:tok@github.com/a/b.git?x=1#abc")).toBe("git+https://***@github.com/a/b.git#abc");
    expect(safeDisplay("foo\u202e@1.0.0")).toBe("foo\\u{202E}@1.0.0");
  });

  it("never shows env assignments, flag values or other arguments", () => {
    const secrets = ["sk-live-ABC123", "hunter2"];
    const commands = [
      ["env", `API_KEY=${secrets[0]}`, "npx", "-y", "foo"],
      ["docker", "run", "-i", "-e", `TOKEN=${secrets[1]}`, "img"],
      ["npx", `--token=${secrets[0]}`, "foo"],
      ["npx", `-z${secrets[1]}`, "foo"],
      ["npx", "-y", "foo", "--api-key", secrets[0]],
      ["uvx", "--from", `git+https://x:${secrets[1]}@github.com/a/b@main`, "b"],
    ];
    for (const argv of commands) {
      const text = JSON.stringify(lintLaunch(argv as string[], knownBad).map((finding) => [finding, installMessage(finding)]));
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});

describe("messages", () => {
  const reasons: Record<string, InstallReason[]> = {
    known_bad: ["bad_version", "bad_range", "bad_any", "bad_text", "bad_name"],
    unpinned: ["no_version", "tag", "range", "not_a_version"],
    unpinned_source: ["git_no_ref", "git_ref", "url"],
    no_digest: ["image_tag", "image_no_tag", "invalid_digest"],
    no_hashes: ["pip_no_hashes"],
    insecure_transport: ["plain_http"],
    unreadable_entry: ["entry_not_object", "command_type", "args_type", "no_command_or_url"],
    unparsed: [
      "variable",
      "unsplittable",
      "substitution",
      "pipeline",
      "control_flow",
      "cmd_metachar",
      "encoded_command",
      "unknown_flag",
      "invalid_spec",
      "workspace_protocol",
      "requirements_file",
      "missing_package",
      "ambiguous_command",
      "unsupported",
      "too_long",
      "too_deep",
    ],
  };

  it("every kind has a row with a severity, title and docs link", () => {
    expect(INSTALL_KIND_NAMES).toEqual([
      "known_bad",
      "unparsed",
      "unpinned_source",
      "unpinned",
      "no_digest",
      "no_hashes",
      "insecure_transport",
      "unreadable_entry",
    ]);
    expect(INSTALL_KINDS.known_bad.severity).toBe("error");
    expect(INSTALL_KINDS.unparsed.severity).toBe("info");
    for (const kind of INSTALL_KIND_NAMES.filter((name) => name !== "known_bad" && name !== "unparsed")) {
      expect(INSTALL_KINDS[kind].severity).toBe("warning");
    }
  });

  it("every reason of every kind has its own sentence", () => {
    const seen = new Set<string>();
    for (const kind of INSTALL_KIND_NAMES) {
      for (const reason of reasons[kind] ?? []) {
        const advisory = {
          ecosystem: "npm" as const,
          name: "pkg",
          versions: ["1.0.0"],
          ranges: [],
          id: "MAL-1",
          date: "2026-01-01",
          source: "test",
          summary: null,
        };
        const finding: InstallFinding = installFinding(kind, "pkg@1", { reason, spec: "x", flag: "--f", ...(kind === "known_bad" ? { advisory } : {}) });
        const message = installMessage(finding);
        expect(message).not.toMatch(/undefined|could not be understood/);
        seen.add(message);
      }
    }
    expect(seen.size).toBe(Object.values(reasons).flat().length);
  });
});

describe("properties", () => {
  const token = fc.string({ maxLength: 12 });
  it("lintLaunch never throws and always returns I1 findings with table severities", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("npx", "uvx", "docker", "sh", "cmd", "pwsh", "env", "pip", "pnpm", "go", "deno", "dnx", "cargo", "x"),
        fc.array(token, { maxLength: 8 }),
        (command, args) => {
          for (const finding of lintLaunch([command, ...args], knownBad)) {
            expect(finding.rule).toBe("I1");
            expect(finding.severity).toBe(INSTALL_KINDS[finding.kind].severity);
            expect(typeof installMessage(finding)).toBe("string");
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("an env assignment's value never appears in the findings", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9]{12,20}$/),
        fc.constantFrom("npx -y foo", "uvx bar@1.0", "docker run -i img", "pip install x==1"),
        (secret, launch) => {
          const argv = ["env", `TOKEN=SeCrEt${secret}`, ...launch.split(" ")];
          const text = JSON.stringify(lintLaunch(argv, knownBad).map((finding) => [finding, installMessage(finding)]));
          expect(text).not.toContain(`SeCrEt${secret}`);
        },
      ),
    );
  });

  it("postmark-mcp@V is known-bad exactly when V >= 1.0.16", () => {
    fc.assert(
      fc.property(fc.nat(3), fc.nat(3), fc.nat(30), (major, minor, patch) => {
        const version = `${major}.${minor}.${patch}`;
        const bad = major > 1 || (major === 1 && (minor > 0 || patch >= 16));
        const finding = lintLaunch(["npx", "-y", `postmark-mcp@${version}`], knownBad)[0];
        expect(finding?.kind === "known_bad").toBe(bad);
      }),
    );
  });
});
