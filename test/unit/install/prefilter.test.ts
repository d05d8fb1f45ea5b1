// The start-up shortcut must never skip a launch that the full install lint would refuse, and the full
// check must refuse a known-bad package however the launch spells it (issue 9, item 2).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { knownBadLaunch, loadKnownBad } from "../../../src/install/index.js";
import { mayNameKnownBad } from "../../../src/install/prefilter.js";

const list = loadKnownBad();

describe("mayNameKnownBad", () => {
  const refused = [
    ["npx", "-y", "postmark-mcp@1.0.16"],
    ["npx", "-y", "Postmark_MCP"],
    ["uvx", "LiteLLM==1.82.8"],
    ["sh", "-c", "npx -y 'postmark'-mcp@1.0.16"],
    ["pip", "install", "https://files.example/litellm-1.82.8-py3-none-any.whl"],
    // The two attacks of issue 9: an unknown npm flag, and ANSI-C quoting the old prefilter did not decode.
    ["npx", "--frobnicate", "postmark-mcp"],
    ["bash", "-c", "npx -y $'\\x70ostmark-mcp@1.0.16'"],
  ];
  for (const argv of refused) {
    it(`keeps ${argv.join(" ")} for the full check, which refuses it`, () => {
      expect(knownBadLaunch(argv, list)).not.toBeNull();
      expect(mayNameKnownBad(argv)).toBe(true);
    });
  }

  it("keeps escaped and percent-encoded spellings too", () => {
    expect(mayNameKnownBad(["cmd", "/c", "npx", "-y", "post^mark-mcp@1.0.16"])).toBe(true);
    expect(mayNameKnownBad(["npx", "-y", "https://registry.example/postmark%2Dmcp-1.0.16.tgz"])).toBe(true);
    expect(mayNameKnownBad(["npx", "-y", "https://registry.example/postmark%252Dmcp-1.0.16.tgz"])).toBe(true);
    expect(mayNameKnownBad(["bash", "-c", "npx -y $'\\160ost'mark-mcp"])).toBe(true);
    expect(mayNameKnownBad(["pwsh", "-Command", "npx -y post`u{6d}ark-mcp"])).toBe(true);
  });

  it("lets an unrelated launch skip the full check", () => {
    expect(mayNameKnownBad(["node", "server.js"])).toBe(false);
    expect(mayNameKnownBad(["npx", "-y", "@modelcontextprotocol/server-filesystem@2025.3.28", "/tmp"])).toBe(false);
    expect(mayNameKnownBad(["sh", "-c", "npx --frobnicate -y 'mcp-remote@0.1.16' https://example.com/sse"])).toBe(false);
  });

  it("never says no to a launch the full check refuses (property over random words)", () => {
    const word = fc.oneof(
      fc.constantFrom("npx", "-y", "uvx", "sh", "-c", "pip", "install", "cmd", "/c", "--from", "==", "@", "--zz", "$'", "'", '"', "\\", "^", "`"),
      fc.constantFrom("postmark-mcp", "postmark_mcp@1.0.16", "litellm==1.82.7", "LiteLLM", "litellm[proxy]==1.82.8", "1.0.16", "1.107.0", "\\x70ostmark-mcp"),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (argv) => {
        if (knownBadLaunch(argv, list) !== null) expect(mayNameKnownBad(argv)).toBe(true);
      }),
      { seed: 42, numRuns: 3000 },
    );
  });
});

// --- Generated spellings ------------------------------------------------------------------------

type Dialect = "argv" | "posix" | "cmd" | "powershell";

/** A bad package with the version suffixes that keep it bad. */
const TARGETS = [
  {
    name: "postmark-mcp",
    launchers: ["npx -y", "npx", "npm exec --yes --", "bunx", "pnpx", "yarn dlx"],
    suffixes: ["", "@1.0.16", "@1.0.18", "@latest", "@^1.0.0"],
  },
  { name: "litellm", launchers: ["uvx", "pip install", "uv tool run"], suffixes: ["==1.82.8", "==1.82.7", "@1.82.8", "==1.107.0"] },
] as const;

const hex = (code: number, width: number) => code.toString(16).padStart(width, "0");

/** One character as a shell in `dialect` could be made to read it; `inQuotes` for the PowerShell/cmd payload. */
function encodeChar(char: string, how: number, dialect: Dialect): string {
  const code = char.charCodeAt(0);
  if (dialect === "posix") {
    switch (how % 9) {
      case 0:
        return char;
      case 1:
        return `\\${char}`;
      case 2:
        return `'${char}'`;
      case 3:
        return `"${char}"`;
      case 4:
        return `$'\\x${hex(code, 2)}'`;
      case 5:
        return `$'\\${code.toString(8)}'`;
      case 6:
        return `$'\\u${hex(code, 4)}'`;
      case 7:
        return `$'\\U${hex(code, 8)}'`;
      // A NUL ends an ANSI-C segment in bash, so the junk after it disappears.
      default:
        return `$'${char}\\0junk'`;
    }
  }
  if (dialect === "powershell") {
    switch (how % 4) {
      case 0:
        return char;
      // A backtick before a letter that is not an escape letter just keeps the letter.
      case 1:
        return "0abefnrtvu".includes(char.toLowerCase()) ? char : `\`${char}`;
      case 2:
        return `\`u{${hex(code, 2)}}`;
      default:
        return `'${char}'`;
    }
  }
  if (dialect === "cmd") return how % 3 === 0 ? `^${char}` : how % 3 === 1 ? `""${char}` : char;
  return char;
}

/** The package name in any case and separators, each character encoded for the dialect. */
function spell(name: string, cases: readonly boolean[], separators: readonly number[], hows: readonly number[], dialect: Dialect): string {
  let text = "";
  let index = 0;
  for (const char of name) {
    if (char === "-") {
      text += ["-", "_", ".", ""][(separators[index] ?? 0) % 4];
    } else {
      const cased = cases[index] === true ? char.toUpperCase() : char;
      text += encodeChar(cased, hows[index] ?? 0, dialect);
      // Separators may also appear between letters (not after the last one): names compare without them.
      if ((separators[index] ?? 0) % 7 === 6 && index < name.length - 1) text += "_";
    }
    index++;
  }
  return text;
}

const UNKNOWN_FLAGS = ["", "--frobnicate", "--zz=1 --frobnicate", "-Z"];

function launchArgv(dialect: Dialect, wrapper: number, line: string): string[] {
  if (dialect === "posix") return [["sh", "bash", "zsh"][wrapper % 3] as string, "-c", line];
  if (dialect === "cmd") return ["cmd", "/c", line];
  if (dialect === "powershell") return [wrapper % 2 === 0 ? "powershell" : "pwsh", "-NoProfile", "-Command", line];
  return wrapper % 2 === 0 ? line.split(" ") : ["env", "API_KEY=x", ...line.split(" ")];
}

describe("generated spellings of known-bad launches", () => {
  const spelling = fc.record({
    target: fc.nat(TARGETS.length - 1),
    launcher: fc.nat(10),
    suffix: fc.nat(10),
    dialect: fc.constantFrom<Dialect>("argv", "posix", "cmd", "powershell"),
    wrapper: fc.nat(5),
    unknown: fc.nat(UNKNOWN_FLAGS.length - 1),
    cases: fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
    separators: fc.array(fc.nat(20), { minLength: 16, maxLength: 16 }),
    hows: fc.array(fc.nat(40), { minLength: 16, maxLength: 16 }),
  });

  it("the full check refuses each one and the prefilter keeps each one", () => {
    let runs = 0;
    fc.assert(
      fc.property(spelling, ({ target, launcher, suffix, dialect, wrapper, unknown, cases, separators, hows }) => {
        const bad = TARGETS[target] as (typeof TARGETS)[number];
        const command = bad.launchers[launcher % bad.launchers.length] as string;
        const version = bad.suffixes[suffix % bad.suffixes.length] as string;
        const name = spell(bad.name, cases, separators, hows, dialect);
        const flags = UNKNOWN_FLAGS[unknown] as string;
        const [first, ...rest] = command.split(" ");
        const line = [first, flags, ...rest, `${name}${version}`].filter((part) => part !== "").join(" ");
        const argv = launchArgv(dialect, wrapper, line);
        runs++;
        expect(knownBadLaunch(argv, list), JSON.stringify(argv)).not.toBeNull();
        expect(mayNameKnownBad(argv), JSON.stringify(argv)).toBe(true);
      }),
      { seed: 9, numRuns: 1500 },
    );
    expect(runs).toBe(1500);
  });

  it("percent-encoded tarball URLs are refused and kept", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), fc.boolean(), (encode, twice) => {
        const name = [..."postmark-mcp"].map((char, index) => (encode[index] === true ? `%${twice ? "25" : ""}${hex(char.charCodeAt(0), 2)}` : char)).join("");
        const argv = ["npx", "-y", `https://registry.npmjs.org/${name}/-/${name}-1.0.16.tgz`];
        expect(knownBadLaunch(argv, list), argv[2]).not.toBeNull();
        expect(mayNameKnownBad(argv)).toBe(true);
      }),
      { seed: 11, numRuns: 300 },
    );
  });
});
