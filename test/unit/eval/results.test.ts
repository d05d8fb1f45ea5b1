// results.jsonl of `mcp-lint eval` (src/eval/results.ts): lines written in a fixed key order and read
// back exactly; a bad line is a one-line UsageError naming the file and line; a last line cut off by
// a killed run is ignored, and appending after it removes the piece first; resume keys. The
// agent's own failures (issue 37): kept apart, not finished, and worked out for lines written before.
import { lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import { appendResult, finishedKeys, legacyInfrastructure, parseResults, resultLine, runKey } from "../../../src/eval/results.js";
import type { EvalResult } from "../../../src/eval/types.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-lint-eval-results-"));
let fileCount = 0;
function freshPath(): string {
  fileCount++;
  return join(dir, `results-${fileCount}.jsonl`);
}

function result(overrides: Partial<EvalResult> = {}): EvalResult {
  return {
    task: "fs-read",
    server: "filesystem",
    arm: "direct",
    run: 1,
    success: true,
    tokens: 1234,
    turns: 3,
    toolCalls: 2,
    ms: 4567,
    error: null,
    agent: "claude",
    model: "claude-sonnet-4",
    infrastructure: false,
    ...overrides,
  };
}

const SAMPLE: EvalResult[] = [
  result(),
  result({ arm: "proxy", success: false, tokens: null, turns: null, toolCalls: null, ms: 12.5, error: "timeout after 300 s" }),
  result({ task: 'odd "id"\n\u2028é😀', server: "s\\x", run: 2, model: "", error: "wrong answer: \u001b[31m" }),
];

/** A run the agent failed on its own (issue 37). */
const OWN_FAILURE = result({ run: 3, success: false, error: "the agent failed (api_error): API Error: 529 Overloaded", infrastructure: true });

/** The UsageError message parseResults throws for `text`. */
function errorOf(text: string, file = "results.jsonl"): string {
  try {
    parseResults(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("parseResults did not throw");
}

describe("resultLine and parseResults", () => {
  it("writes one compact line with the keys in a fixed order", () => {
    expect(resultLine(result())).toBe(
      '{"task":"fs-read","server":"filesystem","arm":"direct","run":1,"success":true,"tokens":1234,"turns":3,"toolCalls":2,"ms":4567,"error":null,"agent":"claude","model":"claude-sonnet-4","infrastructure":false}\n',
    );
    // The same result built with its keys in another order gives the same bytes.
    const shuffled = Object.fromEntries(Object.entries(result()).reverse()) as unknown as EvalResult;
    expect(resultLine(shuffled)).toBe(resultLine(result()));
  });

  it("round-trips every result, odd strings and the agent's own failures included, one line each", () => {
    const text = SAMPLE.map(resultLine).join("");
    expect(text.split("\n")).toHaveLength(SAMPLE.length + 1);
    expect(parseResults(text, "results.jsonl")).toEqual(SAMPLE);
    expect(parseResults(resultLine(OWN_FAILURE), "results.jsonl")).toEqual([OWN_FAILURE]);
    expect(resultLine(OWN_FAILURE)).toContain(',"infrastructure":true}');
  });

  it("skips blank lines, reads CRLF line ends and drops a leading BOM", () => {
    const lines = SAMPLE.map(resultLine);
    const text = `\ufeff\n${lines[0]}   \n\r\n${(lines[1] as string).replace("\n", "\r\n")}\n\n${lines[2]}\n`;
    expect(parseResults(text, "results.jsonl")).toEqual(SAMPLE);
    expect(parseResults("", "results.jsonl")).toEqual([]);
  });

  it("drops keys a result does not have, __proto__ included", () => {
    const line = resultLine(result()).replace("{", '{"extra":1,"__proto__":{"polluted":true},');
    const [parsed] = parseResults(line, "results.jsonl");
    expect(parsed).toEqual(result());
    expect(Object.keys(parsed as object)).toEqual(Object.keys(result()));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses to write a result that could not be read back", () => {
    expect(() => resultLine(result({ ms: Number.NaN }))).toThrow('not an eval result: "ms" must be a number of at least 0');
    expect(() => resultLine(result({ tokens: 1.5 }))).toThrow('"tokens" must be a whole number of at least 0, or null');
    expect(() => resultLine(result({ run: 0 }))).toThrow('"run" must be a whole number of at least 1');
    const { infrastructure: _infrastructure, ...older } = result();
    expect(() => resultLine(older as EvalResult)).toThrow('"infrastructure" is missing');
    expect(() => resultLine(result({ infrastructure: true }))).toThrow('"success" must be false when "infrastructure" is true');
  });
});

describe("older lines, written before the infrastructure field", () => {
  const older = (overrides: Partial<EvalResult>) => {
    const { infrastructure: _infrastructure, ...rest } = result({ success: false, ...overrides });
    return `${JSON.stringify(rest)}\n`;
  };

  it("are read, with the field worked out from the error those versions wrote for the agent's own failures", () => {
    const agentsOwn = [
      // Issue 37: "Not logged in" (is_error on a success result) recorded as a failed task.
      "the agent ended with success",
      "the agent ended with error_during_execution",
      "the agent printed no result",
      "the agent printed no result; its last error line: Error: ECONNRESET",
      "could not start claude (ENOENT)",
      "no answer within 300 s",
    ];
    const tasks = [
      null,
      'the answer does not contain "Tomas Berg"',
      "the agent ended with error_max_turns",
      "the agent ended with an error",
      "the agent ended with success!",
    ];
    for (const error of agentsOwn) {
      const [read] = parseResults(older({ error }), "results.jsonl");
      expect(read?.infrastructure, error).toBe(true);
      expect(finishedKeys([read as EvalResult]).size, error).toBe(0);
    }
    for (const error of tasks) {
      const [read] = parseResults(older({ error }), "results.jsonl");
      expect(read?.infrastructure, String(error)).toBe(false);
      expect(finishedKeys([read as EvalResult]).size, String(error)).toBe(1);
    }
    // A success is never the agent's failure, whatever its error says.
    expect(legacyInfrastructure({ success: true, error: "no answer within 300 s" })).toBe(false);
  });

  it("are written back with the field when a new line is added after them", async () => {
    const path = freshPath();
    writeFileSync(path, older({ error: "the agent ended with success" }));
    await appendResult(path, result({ run: 2 }));
    const [first, second] = parseResults(readFileSync(path, "utf8"), path);
    expect(first?.infrastructure).toBe(true);
    expect(second).toEqual(result({ run: 2 }));
  });
});

describe("parseResults on a bad line", () => {
  const good = resultLine(result());
  const withField = (field: string, value: unknown) => `${JSON.stringify({ ...result(), [field]: value })}\n`;

  it("names the file and the line of a line that is not JSON", () => {
    expect(errorOf(`${good}{"task":\n${good}`)).toBe("results.jsonl line 2 is not an eval result: it is not JSON; fix or delete that line");
    // Blank lines count: the line number is the file's.
    expect(errorOf(`${good}\n\n${good}nope\n`, "out/r.jsonl")).toBe("out/r.jsonl line 5 is not an eval result: it is not JSON; fix or delete that line");
  });

  it("a last line that does not parse but ends in a newline is an error, not a cut-off run", () => {
    expect(errorOf(`${good}{"task":"x"\n`)).toBe("results.jsonl line 2 is not an eval result: it is not JSON; fix or delete that line");
  });

  it("checks the type of every field", () => {
    const cases: Array<[string, unknown, string]> = [
      ["task", "", '"task" must be a non-empty string'],
      ["task", 7, '"task" must be a non-empty string'],
      ["server", null, '"server" must be a non-empty string'],
      ["arm", "both", '"arm" must be "direct" or "proxy"'],
      ["run", 0, '"run" must be a whole number of at least 1'],
      ["run", 1.5, '"run" must be a whole number of at least 1'],
      ["run", "1", '"run" must be a whole number of at least 1'],
      ["success", "yes", '"success" must be true or false'],
      ["tokens", -1, '"tokens" must be a whole number of at least 0, or null'],
      ["tokens", "12", '"tokens" must be a whole number of at least 0, or null'],
      ["turns", 2.5, '"turns" must be a whole number of at least 0, or null'],
      ["toolCalls", true, '"toolCalls" must be a whole number of at least 0, or null'],
      ["ms", null, '"ms" must be a number of at least 0'],
      ["ms", -3, '"ms" must be a number of at least 0'],
      ["error", 0, '"error" must be a string or null'],
      ["agent", null, '"agent" must be a string'],
      ["model", ["x"], '"model" must be a string'],
      ["infrastructure", "yes", '"infrastructure" must be true or false'],
      ["infrastructure", null, '"infrastructure" must be true or false'],
    ];
    for (const [field, value, why] of cases) {
      expect(errorOf(`${good}${withField(field, value)}`)).toBe(`results.jsonl line 2 is not an eval result: ${why}; fix or delete that line`);
    }
    expect(errorOf(`${good}${withField("infrastructure", true)}`)).toBe(
      'results.jsonl line 2 is not an eval result: "success" must be false when "infrastructure" is true; fix or delete that line',
    );
  });

  it("names a missing field, and refuses what is not an object", () => {
    const { tokens: _tokens, ...rest } = result();
    expect(errorOf(`${JSON.stringify(rest)}\n`)).toBe('results.jsonl line 1 is not an eval result: "tokens" is missing; fix or delete that line');
    for (const line of ["[1,2]", "null", '"text"', "42"]) {
      expect(errorOf(`${line}\n`)).toBe("results.jsonl line 1 is not an eval result: it is not a JSON object; fix or delete that line");
    }
  });

  it("keeps the message on one inert line whatever the file is called", () => {
    expect(errorOf("x\n", "evil\n::error::name\u001b[2J.jsonl")).toBe(
      "evil\\u{A}::error::name\\u{1B}[2J.jsonl line 1 is not an eval result: it is not JSON; fix or delete that line",
    );
  });
});

describe("parseResults on a cut-off last line", () => {
  const lines = SAMPLE.map(resultLine).join("");

  it("ignores a last line without a newline that does not parse (a run killed mid-write)", () => {
    const full = resultLine(result({ task: "cut" }));
    for (const cut of [1, 10, full.length - 3, full.length - 2]) {
      expect(parseResults(lines + full.slice(0, cut), "results.jsonl")).toEqual(SAMPLE);
    }
    expect(parseResults(full.slice(0, 20), "results.jsonl")).toEqual([]);
  });

  it("reads a whole last line without a newline, and still checks its fields", () => {
    const last = resultLine(result({ task: "whole" })).trimEnd();
    expect(parseResults(lines + last, "results.jsonl")).toEqual([...SAMPLE, result({ task: "whole" })]);
    expect(errorOf(`${lines}{"task":1}`)).toBe('results.jsonl line 4 is not an eval result: "task" must be a non-empty string; fix or delete that line');
  });
});

describe("runKey and finishedKeys", () => {
  it("finds every run that has a task result, failed or not, and not one with only the agent's own failures", () => {
    const keys = finishedKeys([...SAMPLE, OWN_FAILURE]);
    expect(keys.size).toBe(3);
    expect(keys.has(runKey("fs-read", "direct", 3, "claude", "claude-sonnet-4"))).toBe(false);
    expect(keys.has(runKey("fs-read", "direct", 1, "claude", "claude-sonnet-4"))).toBe(true);
    expect(keys.has(runKey("fs-read", "proxy", 1, "claude", "claude-sonnet-4"))).toBe(true);
    expect(keys.has(runKey("fs-read", "direct", 2, "claude", "claude-sonnet-4"))).toBe(false);
    expect(keys.has(runKey("fs-read", "direct", 1, "gemini", "claude-sonnet-4"))).toBe(false);
    expect(keys.has(runKey("fs-read", "direct", 1, "claude", "other"))).toBe(false);
  });

  it("keeps runs apart whatever their strings hold", () => {
    const keys = [
      runKey("a", "direct", 1, "b", "c"),
      runKey("a", "direct", 1, "b,c", ""),
      runKey("a,direct", "direct", 1, "b", "c"),
      runKey('a","direct', "direct", 1, "b", "c"),
      runKey("a", "direct", 11, "b", "c"),
      runKey("a", "proxy", 1, "b", "c"),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("counts a run once however many lines it has", () => {
    expect(finishedKeys([result(), result({ success: false }), result()]).size).toBe(1);
  });

  it("a run the agent failed on its own and then finished is finished, in either order of its lines", () => {
    const own = { ...OWN_FAILURE, run: 1 };
    expect(finishedKeys([own, result()]).size).toBe(1);
    expect(finishedKeys([result({ success: false }), own]).size).toBe(1);
    expect(finishedKeys([own, own]).size).toBe(0);
  });
});

describe("appendResult", () => {
  it("creates the file, not executable nor writable by others, and appends a line per call", async () => {
    const path = freshPath();
    await appendResult(path, SAMPLE[0] as EvalResult);
    expect(statSync(path).mode & 0o777 & ~0o644).toBe(0);
    await appendResult(path, SAMPLE[1] as EvalResult);
    await appendResult(path, SAMPLE[2] as EvalResult);
    const text = readFileSync(path, "utf8");
    expect(text).toBe(SAMPLE.map(resultLine).join(""));
    expect(parseResults(text, path)).toEqual(SAMPLE);
  });

  it("removes a cut-off last line before appending, so the file still parses", async () => {
    const path = freshPath();
    const cut = resultLine(result({ task: "killed" })).slice(0, 30);
    writeFileSync(path, `${resultLine(result())}${cut}`);
    await appendResult(path, result({ task: "next" }));
    expect(readFileSync(path, "utf8")).toBe(resultLine(result()) + resultLine(result({ task: "next" })));

    // A file that is nothing but a cut-off line, and one cut inside a multi-byte character.
    const lone = freshPath();
    writeFileSync(lone, cut);
    await appendResult(lone, result());
    expect(readFileSync(lone, "utf8")).toBe(resultLine(result()));
    const multibyte = freshPath();
    const bytes = Buffer.from(resultLine(result({ task: "é😀" })));
    writeFileSync(multibyte, Buffer.concat([Buffer.from(resultLine(result())), bytes.subarray(0, bytes.indexOf(0xf0) + 2)]));
    await appendResult(multibyte, result({ run: 2 }));
    expect(parseResults(readFileSync(multibyte, "utf8"), multibyte)).toEqual([result(), result({ run: 2 })]);
  });

  it("ends a whole last line that lacks its newline instead of removing it", async () => {
    const path = freshPath();
    writeFileSync(path, resultLine(result()).trimEnd());
    await appendResult(path, result({ run: 2 }));
    expect(parseResults(readFileSync(path, "utf8"), path)).toEqual([result(), result({ run: 2 })]);
  });

  it("keeps lines whole when many appends run at once", async () => {
    const path = freshPath();
    const many = Array.from({ length: 40 }, (_, index) => result({ run: index + 1, error: "x".repeat(index * 50) }));
    await Promise.all(many.map((one) => appendResult(path, one)));
    const parsed = parseResults(readFileSync(path, "utf8"), path);
    expect(parsed.map((one) => one.run).sort((a, b) => a - b)).toEqual(many.map((one) => one.run));
  });

  it("refuses a symbolic link and a missing folder, and writes nothing that could not be read back", async () => {
    const target = freshPath();
    writeFileSync(target, "");
    const link = freshPath();
    symlinkSync(target, link);
    await expect(appendResult(link, result())).rejects.toThrow("it is a symbolic link");
    expect(readFileSync(target, "utf8")).toBe("");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    await expect(appendResult(join(dir, "missing", "r.jsonl"), result())).rejects.toThrow("does not exist; create it first");
    const path = freshPath();
    await expect(appendResult(path, result({ turns: -1 }))).rejects.toThrow('"turns" must be');
    expect(() => statSync(path)).toThrow();
  });
});
