import { describe, expect, it } from "vitest";
import { tomlValueSpans } from "../../../../src/proxy/wrap/toml-spans.js";
import { applyEdits, EntryEditError, unwrapEdits, wrapEdits } from "../../../../src/proxy/wrap/edit.js";

const prefix = ["-y", "mcp-lint@0.1.0", "proxy", "--lock", "/l", "--"];
const roundTrip = (text: string, syntax: "json" | "toml" | "yaml", at: (string | number)[], argsAbsent = false) => {
  const wrapped = applyEdits(text, wrapEdits(text, syntax, at, "npx", argsAbsent ? ["-y", "mcp-lint@0.1.0", "proxy", "--lock=/l", "--"] : prefix));
  const back = applyEdits(wrapped, unwrapEdits(wrapped, syntax, at, argsAbsent ? 5 : 6, argsAbsent));
  return { wrapped, back };
};

describe("wrap edits", () => {
  it("JSON: keeps the command literal as written (escapes included) and the layout of a multi-line list", () => {
    const text = '{\n  "s": {\n    "command": "C:\\\\Tools\\\\srv.exe", // the server\n    "args": [\n      "--port",\n      "1"\n    ]\n  }\n}\n';
    const { wrapped, back } = roundTrip(text, "json", ["s"]);
    expect(wrapped).toContain('"command": "npx", // the server');
    expect(wrapped).toContain('      "--",\n      "C:\\\\Tools\\\\srv.exe",\n      "--port",');
    expect(back).toBe(text);
  });

  it("JSON: adds args to an entry without any, and removes exactly that again", () => {
    const text = '{"s": {"command": "srv", "env": {"A": "1"}}}';
    const { wrapped, back } = roundTrip(text, "json", ["s"], true);
    expect(wrapped).toBe('{"s": {"command": "npx", "args": ["-y", "mcp-lint@0.1.0", "proxy", "--lock=/l", "--", "srv"], "env": {"A": "1"}}}');
    expect(back).toBe(text);
  });

  it("refuses to unwrap an added args list that was edited since", () => {
    const wrapped = '{"s": {"command": "npx",\n "args": ["-y", "mcp-lint@0.1.0", "proxy", "--lock=/l", "--", "srv"]}}';
    expect(() => unwrapEdits(wrapped, "json", ["s"], 5, true)).toThrow(EntryEditError);
  });

  it("TOML: literal strings, comments inside a list, dotted keys and inline tables", () => {
    const text = '[mcp_servers.a]\ncommand = \'uvx\' # launcher\nargs = [\n  "x", # first\n]\n\n[mcp_servers]\nb.command = "node"\nc = { command = "srv" }\n';
    expect(roundTrip(text, "toml", ["mcp_servers", "a"]).back).toBe(text);
    const dotted = roundTrip(text, "toml", ["mcp_servers", "b"], true);
    expect(dotted.wrapped).toContain('b.command = "npx"\nb.args = ["-y", "mcp-lint@0.1.0", "proxy", "--lock=/l", "--", "node"]\n');
    expect(dotted.back).toBe(text);
    const inline = roundTrip(text, "toml", ["mcp_servers", "c"], true);
    expect(inline.wrapped).toContain('c = { command = "npx", args = ["-y", "mcp-lint@0.1.0", "proxy", "--lock=/l", "--", "srv"] }');
    expect(inline.back).toBe(text);
  });

  it("TOML spans: multi-line strings and arrays of tables are stepped over", () => {
    const spans = tomlValueSpans('a = """x\n"y" """\n[[t]]\nk = 1\n[[t]]\nk = [1, [2, 3]]\n');
    expect(spans.get('["a"]')?.span).toEqual({ start: 4, end: 16 });
    expect(spans.get('["t","1","k"]')?.items).toHaveLength(2);
  });

  it("YAML: flow and block lists, a CRLF file, and a command that cannot be copied into a flow list", () => {
    const block = "s:\r\n  command: uvx\r\n  args:\r\n    - a   # first\r\n    - b\r\n";
    const { wrapped, back } = roundTrip(block, "yaml", ["s"]);
    expect(wrapped).toContain('  command: npx\r\n  args:\r\n    - "-y"\r\n    - mcp-lint@0.1.0\r\n');
    expect(back).toBe(block);
    const flow = "s: {command: node, args: [x]}\n";
    expect(roundTrip(flow, "yaml", ["s"]).back).toBe(flow);
    expect(() => wrapEdits("s:\n  command: ${HOME}/bin/x\n  args: [y]\n", "yaml", ["s"], "npx", prefix)).toThrow(/cannot be copied/);
  });
});
