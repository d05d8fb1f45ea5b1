// Issue 41 item 5: every keyword JSON Schema 2020-12 defines is classified by the walker's table, none
// falls to the unknown-key handling. The list is read from the 2020-12 vocabulary meta-schemas ajv ships
// (the specification's own files), not written here, so a keyword a future draft adds shows up as a failure.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareSchemas } from "../../../src/schema/index.js";
import { keywordInfo } from "../../../src/schema/keywords.js";

const require = createRequire(import.meta.url);
const metaFolder = join(dirname(require.resolve("ajv/dist/refs/json-schema-2020-12/schema.json")), "meta");

function vocabularyKeywords(): Map<string, string> {
  const keywords = new Map<string, string>();
  for (const file of readdirSync(metaFolder)) {
    const meta = JSON.parse(readFileSync(join(metaFolder, file), "utf8")) as { properties?: Record<string, unknown> };
    for (const key of Object.keys(meta.properties ?? {})) keywords.set(key, file.replace(/\.json$/, ""));
  }
  return keywords;
}

describe("the walker classifies every 2020-12 keyword", () => {
  const keywords = vocabularyKeywords();

  it("reads the seven vocabularies", () => {
    expect(new Set(keywords.values())).toEqual(new Set(["applicator", "content", "core", "format-annotation", "meta-data", "unevaluated", "validation"]));
    expect(keywords.size).toBeGreaterThanOrEqual(50);
  });

  it("has a role for each, none left to the unknown-key fallback", () => {
    const unknown = [...keywords.keys()].filter((key) => keywordInfo(key).role === "unknown");
    expect(unknown).toEqual([]);
  });

  it("reports a change of each keyword's value, never silently", () => {
    const sample: Record<string, [unknown, unknown]> = {};
    for (const key of keywords.keys()) {
      const role = keywordInfo(key).role;
      sample[key] =
        role === "text"
          ? ["one", "two"]
          : role === "values" || role === "required"
            ? [["a"], ["a", "b"]]
            : role === "upperLimit" || role === "lowerLimit" || role === "multipleOf"
              ? [2, 3]
              : role === "type"
                ? ["string", "number"]
                : role === "flag"
                  ? [true, false]
                  : role === "dialect"
                    ? ["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"]
                    : role === "reference"
                      ? ["#/$defs/a", "#/$defs/b"]
                      : role === "assertion"
                        ? ["^a$", "^b$"]
                        : [{ type: "string" }, { type: "number" }];
    }
    const silent: string[] = [];
    for (const [key, [before, after]] of Object.entries(sample)) {
      const schema = (value: unknown) => ({ type: "object", properties: { p: { [key]: value } }, $defs: { a: { type: "string" }, b: { type: "number" } } });
      const findings = compareSchemas(schema(before), schema(after));
      if (findings.length === 0) silent.push(key);
    }
    // $vocabulary lists what a meta-schema uses; in a tool's schema it changes nothing a validator checks here.
    expect(silent.filter((key) => key !== "$vocabulary")).toEqual([]);
  });
});
