// The known-bad list: data with date and source, strict --known-bad validation, normalisation and range rules, refusal.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JsonInputError, UsageError } from "../../../src/errors.js";
import { BUILTIN_KNOWN_BAD, knownBadLaunch, lintLaunch, loadKnownBad } from "../../../src/install/index.js";
import { matchResolution, matchVersion, scanText } from "../../../src/install/bad-match.js";
import { normalizeName, versionKey } from "../../../src/install/versions.js";

const builtin = loadKnownBad();

describe("built-in data", () => {
  it("gives every entry a date and a source", () => {
    expect(BUILTIN_KNOWN_BAD.entries.length).toBeGreaterThanOrEqual(3);
    for (const entry of BUILTIN_KNOWN_BAD.entries) {
      expect(entry.date).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
      expect(entry.source.length).toBeGreaterThan(10);
    }
  });

  it("covers postmark-mcp from 1.0.16 on and litellm 1.82.7, 1.82.8, 1.107.0", () => {
    expect(matchVersion(builtin, "npm", "postmark-mcp", "1.0.16")?.entry.id).toBe("MAL-2025-47604");
    expect(matchVersion(builtin, "npm", "postmark-mcp", "9.9.9")?.openEnded).toBe(true);
    expect(matchVersion(builtin, "npm", "postmark-mcp", "1.0.15")).toBeNull();
    expect(matchVersion(builtin, "PyPI", "litellm", "1.82.7")?.entry.id).toBe("MAL-2026-2144");
    expect(matchVersion(builtin, "PyPI", "litellm", "1.82.8")?.entry.id).toBe("MAL-2026-2144");
    expect(matchVersion(builtin, "PyPI", "litellm", "1.107.0")?.entry.source).toMatch(/spec/);
    expect(matchVersion(builtin, "PyPI", "litellm", "1.82.9")).toBeNull();
  });
});

describe("normalisation", () => {
  it.each([
    ["npm", "v1.0.16", "1.0.16"],
    ["npm", "=1.0.16", "1.0.16"],
    ["npm", "01.0.16", "1.0.16"],
    ["npm", "1.0.16+build.5", "1.0.16"],
    ["npm", "1.0.16.0", "1.0.16"],
    ["PyPI", "0!1.82.8", "1.82.8"],
    ["PyPI", "1.82.8+local", "1.82.8"],
    ["PyPI", "V1.82.8", "1.82.8"],
    ["PyPI", "1.107", "1.107"],
    ["PyPI", "1.107.0", "1.107"],
    ["PyPI", "1.0rc1", "1rc1"],
  ] as const)("%s %s -> %s", (ecosystem, version, key) => {
    expect(versionKey(ecosystem, version)).toBe(key);
  });

  it("compares names without -, _, . and case", () => {
    expect(normalizeName("Lite.LLM")).toBe(normalizeName("litellm"));
    expect(normalizeName("Postmark_MCP")).toBe(normalizeName("postmark-mcp"));
  });
});

describe("ranges", () => {
  const exactOnly = loadKnownBad(
    JSON.stringify({
      version: 1,
      entries: [{ ecosystem: "npm", name: "pm-test", versions: ["1.0.16"], date: "2025-09-17", source: "test" }],
    }),
  );
  it.each([
    ["PyPI", "litellm", ">=1.82.8,<1.82.9", true],
    ["PyPI", "litellm", "<=1.82.8", true],
    ["PyPI", "litellm", "==1.82.8", true],
    ["PyPI", "litellm", ">=1.82.7", false],
    ["PyPI", "litellm", "~=1.82.0", false],
    ["PyPI", "litellm", "<1.82.7", false],
  ] as const)("%s %s %s -> bad %s", (ecosystem, name, range, bad) => {
    expect(matchResolution(builtin, ecosystem, name, { type: "range", range }) !== null).toBe(bad);
  });

  it("follows the spec's rule for a single bad version: <=1.0.16 is refused, ^1.0.16 is not", () => {
    expect(matchResolution(exactOnly, "npm", "pm-test", { type: "range", range: "<=1.0.16" })).not.toBeNull();
    expect(matchResolution(exactOnly, "npm", "pm-test", { type: "range", range: "^1.0.16" })).toBeNull();
    expect(matchResolution(exactOnly, "npm", "pm-test", { type: "any" })).toBeNull();
  });

  it("treats an advisory with no fixed version as covering tags and open ranges", () => {
    expect(matchResolution(builtin, "npm", "postmark-mcp", { type: "any" })).not.toBeNull();
    expect(matchResolution(builtin, "npm", "postmark-mcp", { type: "range", range: "^1.0.16" })).not.toBeNull();
    expect(matchResolution(builtin, "npm", "postmark-mcp", { type: "range", range: "<1.0.16" })).toBeNull();
  });

  it("handles a fixed range: bad when nothing at or after the fix is admitted", () => {
    const fixed = loadKnownBad(
      JSON.stringify({
        version: 1,
        entries: [{ ecosystem: "PyPI", name: "fx", ranges: [{ introduced: "2.0.0", fixed: "2.0.3" }], date: "2026-01-01", source: "test" }],
      }),
    );
    expect(matchVersion(fixed, "PyPI", "fx", "2.0.2")).not.toBeNull();
    expect(matchVersion(fixed, "PyPI", "fx", "2.0.3")).toBeNull();
    expect(matchResolution(fixed, "PyPI", "fx", { type: "range", range: ">=2.0,<2.0.3" })).not.toBeNull();
    expect(matchResolution(fixed, "PyPI", "fx", { type: "range", range: ">=2.0" })).toBeNull();
    expect(matchResolution(fixed, "PyPI", "fx", { type: "any" })).toBeNull();
  });
});

describe("names in text", () => {
  it.each([
    ["litellm-1.82.8-py3-none-any.whl", true],
    ["https://files.pythonhosted.org/x/litellm-1.82.7.tar.gz", true],
    ["postmark-mcp-1.0.16.tgz", true],
    ["--from=litellm==1.82.8", true],
    ["Lite_LLM==1.82.7", true],
    ["litellm-1.82.6-py3-none-any.whl", false],
    ["not-litellm-1.82.8.tgz", false],
    ["postmark-mcp-1.0.15.tgz", false],
    ["my-litellm-fork==1.82.8", false],
  ])("%s -> %s", (text, bad) => {
    expect(scanText(builtin, text).length > 0).toBe(bad);
  });
});

describe("--known-bad FILE", () => {
  const extra = (value: unknown) => JSON.stringify(value);
  it("merges entries of the same shape", () => {
    const list = loadKnownBad(
      extra({
        version: 1,
        entries: [{ ecosystem: "npm", name: "@evil/mcp", versions: ["2.0.0"], id: "X-1", date: "2026-11-01", source: "internal", summary: "test" }],
      }),
      "extra.json",
    );
    expect(list.entries).toHaveLength(builtin.entries.length + 1);
    expect(knownBadLaunch(["npx", "-y", "@evil/mcp@2.0.0"], list)?.kind).toBe("known_bad");
    expect(knownBadLaunch(["npx", "-y", "@evil/mcp@2.0.0"], builtin)).toBeNull();
  });

  it.each([
    ["{", JsonInputError, /^extra\.json: invalid JSON/],
    ["[]", UsageError, /^extra\.json: expected an object/],
    [extra({ version: 2, entries: [] }), UsageError, /version: must be 1/],
    [extra({ version: 1, entries: [], more: 1 }), UsageError, /unknown key "more"/],
    [
      extra({ version: 1, entries: [{ ecosystem: "cargo", name: "x", versions: ["1.0.0"], date: "2026-01-01", source: "s" }] }),
      UsageError,
      /entries\[0\]\.ecosystem: must be "npm" or "PyPI"/,
    ],
    [
      extra({ version: 1, entries: [{ ecosystem: "npm", name: "x", versions: ["latest"], date: "2026-01-01", source: "s" }] }),
      UsageError,
      /entries\[0\]\.versions\[0\]: "latest" is not an npm version/,
    ],
    [
      extra({ version: 1, entries: [{ ecosystem: "npm", name: "x", date: "2026-01-01", source: "s" }] }),
      UsageError,
      /needs at least one of versions or ranges/,
    ],
    [
      extra({ version: 1, entries: [{ ecosystem: "npm", name: "x", versions: ["1.0.0"], date: "2026-02-30", source: "s" }] }),
      UsageError,
      /date: must be a date/,
    ],
    [
      extra({ version: 1, entries: [{ ecosystem: "npm", name: "x", versions: ["1.0.0"], date: "2026-02-01" }] }),
      UsageError,
      /source: must be a non-empty string/,
    ],
    [
      extra({ version: 1, entries: [{ ecosystem: "PyPI", name: "x", ranges: [{ introduced: "1.0", until: "2" }], date: "2026-02-01", source: "s" }] }),
      UsageError,
      /ranges\[0\]: unknown key "until"/,
    ],
  ])("rejects %s", (text, type, message) => {
    expect(() => loadKnownBad(text, "extra.json")).toThrow(type);
    expect(() => loadKnownBad(text, "extra.json")).toThrow(message);
  });

  it("errors are one line", () => {
    try {
      loadKnownBad("{\n\n  nope", "extra.json");
    } catch (error) {
      expect((error as Error).message).not.toContain("\n");
    }
  });
});

describe("knownBadLaunch", () => {
  it("returns the known-bad finding, or null for a clean launch", () => {
    expect(knownBadLaunch(["npx", "-y", "postmark-mcp@1.0.16"], builtin)).toMatchObject({
      rule: "I1",
      kind: "known_bad",
      severity: "error",
      package: "postmark-mcp@1.0.16",
    });
    expect(knownBadLaunch(["npx", "-y", "postmark-mcp"], builtin)?.args.reason).toBe("bad_any");
    expect(knownBadLaunch(["uvx", "mcp-server-fetch"], builtin)).toBeNull();
    expect(knownBadLaunch(["sudo", "timeout", "10", "uvx", "litellm==1.82.8"], builtin)).not.toBeNull();
  });

  it("decides without starting the server process", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-lint-refuse-"));
    const marker = join(dir, "started");
    const argv = [process.execPath, "-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`, "--", "postmark-mcp@1.0.16"];
    expect(knownBadLaunch(argv, builtin)?.kind).toBe("known_bad");
    expect(existsSync(marker)).toBe(false);
  });

  it("known_bad replaces the other finding for that package", () => {
    const findings = lintLaunch(["npx", "-y", "postmark-mcp@^1.0.0"], builtin);
    expect(findings.map((finding) => finding.kind)).toEqual(["known_bad"]);
  });
});
