// Issue 9, item 6: check-config's display and scanning regexes were quadratic (a 200 KB argument took 30 s).
// Every shape below once hit one of them; each now takes linear time, and the result is still right.
import { describe, expect, it } from "vitest";
import { lintServer } from "../../../src/config/lint.js";
import { readConfigText } from "../../../src/config/readers/index.js";
import { configJsonReport, renderConfigReport } from "../../../src/config/report.js";
import { knownBadLaunch, lintLaunch, loadKnownBad } from "../../../src/install/index.js";
import { mayNameKnownBad } from "../../../src/install/prefilter.js";
import { hasVariable, safeDisplay } from "../../../src/install/tokens.js";
import { expectLinear } from "../../growth.js";

const knownBad = loadKnownBad();

const SIZES = [200 * 1024, 2 * 1024 * 1024] as const;

function repeat(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

// The shapes that were quadratic: a URL scheme retried from every letter, `${` rescanning to the
// end, an extras bracket after every name, a `://` path scan, a run of spaces before `;`.
const SHAPES: readonly [string, string][] = [
  ["letters", "a"],
  ["dollar-brace", "${"],
  ["name-bracket", "litellm["],
  ["scheme-separators", "://"],
  ["spaces", " "],
  ["quotes and escapes", "a'b\"c\\d`e^f$'g"],
  ["ANSI-C segments", "$'\\x70"],
  ["percent", "%25"],
];

/** Every shape at 200 KB; at 2 MB the ones that were slowest (time is linear, so the rest add nothing). */
function shapesFor(size: number): readonly [string, string][] {
  return size < 1024 * 1024 ? SHAPES : SHAPES.filter(([shape]) => ["letters", "dollar-brace", "name-bracket", "quotes and escapes"].includes(shape));
}

describe("check-config with a 200 KB or 2 MB argument", () => {
  for (const size of SIZES) {
    it(`${size / 1024} KB: each shape is read, linted and reported, with the right findings`, () => {
      for (const [shape, unit] of shapesFor(size)) {
        const big = repeat(unit, size);
        const text = JSON.stringify({ mcpServers: { big: { command: "npx", args: ["-y", "some-server@1.2.3", "--data", big] } } });
        const output = checkConfig(text);
        // A pinned package with a long argument: nothing to report, and nothing long printed.
        expect(output.findings, shape).toEqual([]);
        expect(output.terminal.length).toBeLessThan(1000);
        expect(output.json.length).toBeLessThan(2000);
      }
    });

    it(`${size / 1024} KB: the long argument is the package, or names a known-bad one`, () => {
      for (const [shape, unit] of shapesFor(size)) {
        const big = repeat(unit, size);
        const findings = lintLaunch(["npx", "-y", big], knownBad);
        // Far longer than any package name: reported as not checked, shown capped.
        expect(
          findings.map((finding) => [finding.kind, finding.args.reason]),
          shape,
        ).toEqual([["unparsed", "too_long"]]);
        expect((findings[0]?.package ?? "").length).toBeLessThan(260);
      }
      // Inline code that runs a known-bad package, behind a megabyte of padding: still refused.
      const padded = `${repeat("x ", size)}require('child_process').execSync('npx -y postmark-mcp')`;
      expect(knownBadLaunch(["node", "-e", padded], knownBad)?.kind).toBe("known_bad");
      expect(mayNameKnownBad(["node", "-e", padded])).toBe(true);
    });

    it(`${size / 1024} KB: display and variable checks are right`, () => {
      const shown = safeDisplay(repeat("https://user:secret@host/", size));
      expect(shown.startsWith("https://***@host/https://***@host/")).toBe(true);
      expect(shown).not.toContain("secret");
      expect(shown).toMatch(/more characters\)$/);
      expect(hasVariable(repeat("${", size))).toBe(false);
      expect(hasVariable(`${repeat("${", size)}}`)).toBe(true);
    });
  }

  it("every shape takes linear time: ten times the argument, about ten times the work", () => {
    for (const [shape, unit] of SHAPES) {
      const config = (size: number) =>
        JSON.stringify({ mcpServers: { big: { command: "npx", args: ["-y", "some-server@1.2.3", "--data", repeat(unit, size)] } } });
      expectLinear(`${shape} in a config`, (size) => checkConfig(config(size)), 20 * 1024);
      expectLinear(`${shape} as a package`, (size) => lintLaunch(["npx", "-y", repeat(unit, size)], knownBad), 20 * 1024);
    }
    const padded = (size: number) => `${repeat("x ", size)}require('child_process').execSync('npx -y postmark-mcp')`;
    expectLinear("padded inline code", (size) => knownBadLaunch(["node", "-e", padded(size)], knownBad), 20 * 1024);
    expectLinear("prefilter", (size) => mayNameKnownBad(["node", "-e", padded(size)]), 20 * 1024);
    expectLinear("URL display", (size) => safeDisplay(repeat("https://user:secret@host/", size)), 20 * 1024);
    expectLinear("variable check", (size) => hasVariable(repeat("${", size)), 20 * 1024);
  });
});

/** What check-config does with one config text: read, lint, and both reports. */
function checkConfig(text: string) {
  const document = readConfigText(text, "/p/.cursor/mcp.json");
  const files = [{ file: "/p/.cursor/mcp.json", document, servers: document.servers.map((server) => ({ server, findings: lintServer(server, knownBad) })) }];
  return { findings: files[0]?.servers[0]?.findings, terminal: renderConfigReport(files, "info"), json: JSON.stringify(configJsonReport(files)) };
}

// Each server's line was found by scanning its container again (findLast), so 100,000 servers
// took 483 s; the container is now indexed once. Duplicate keys still resolve to the last one.
describe("a config with 50,000 servers", () => {
  const count = 50_000;
  const json = JSON.stringify(
    { mcpServers: Object.fromEntries(Array.from({ length: count }, (_, index) => [`s${index}`, { command: "node", args: [`s${index}.js`] }])) },
    null,
    1,
  );
  let yaml = "mcpServers:\n";
  for (let index = 0; index < count; index++) yaml += `  s${index}:\n    command: node\n`;

  for (const [name, text, path, linesPerServer, firstLine] of [
    ["JSON", json, "/p/.cursor/mcp.json", 6, 3],
    ["YAML", yaml, "/p/config.yaml", 2, 2],
  ] as const) {
    it(`${name}: every server gets its own line`, () => {
      const value = readConfigText(text, path);
      expect(value.servers).toHaveLength(count);
      const last = value.servers[count - 1];
      expect(last?.line).toBe(firstLine + (count - 1) * linesPerServer);
    });
  }

  it("finding each server's line grows linearly with the number of servers", () => {
    const jsonOf = (n: number) =>
      JSON.stringify({ mcpServers: Object.fromEntries(Array.from({ length: n }, (_, index) => [`s${index}`, { command: "node" }])) }, null, 1);
    const yamlOf = (n: number) => `mcpServers:\n${Array.from({ length: n }, (_, index) => `  s${index}:\n    command: node\n`).join("")}`;
    expectLinear("JSON servers", (n) => readConfigText(jsonOf(n), "/p/.cursor/mcp.json"), 1_000);
    expectLinear("YAML servers", (n) => readConfigText(yamlOf(n), "/p/config.yaml"), 1_000);
  });

  it("a repeated key resolves to its last copy, in JSON and YAML", () => {
    const jsonText = '{"mcpServers": {\n"a": {"command": "x"},\n"a": {"command": "y"}\n}}';
    expect(readConfigText(jsonText, "/p/.cursor/mcp.json").servers.map((server) => server.line)).toEqual([3]);
    const yamlText = "mcpServers:\n  a:\n    command: x\n  a:\n    command: y\n";
    expect(readConfigText(yamlText, "/p/config.yaml").servers.map((server) => server.line)).toEqual([4]);
  });
});
