// What a first lock lists for one tool: every string the model reads, once, at its pointer; nothing that is not text.
import { describe, expect, it } from "vitest";
import { toolTexts } from "../../../src/report/first-lock.js";

describe("toolTexts", () => {
  it("walks every applicator and named-schema keyword, and leaves types, numbers, booleans, null and required out", () => {
    const tool = {
      name: "t",
      title: "T",
      inputSchema: {
        type: "object",
        required: ["a"],
        additionalProperties: false,
        properties: {
          a: { type: "string", default: null, minLength: 1, deprecated: true, oneOf: [{ const: "x" }, { allOf: [{ description: "in allOf" }] }] },
          "b/c": { type: "array", items: [{ title: "tuple item" }], examples: [1, "ex", { nested: "in example" }] },
        },
        patternProperties: { "^x-": { description: "extension" } },
        definitions: { old: { enum: ["one", 2, null] } },
        "x-vendor": { hint: "unknown key text" },
        if: { properties: { a: { const: "y" } } },
        then: { description: "then branch" },
      },
      outputSchema: { type: "object", properties: { out: { description: "result" } } },
    };
    expect(toolTexts(tool).map((item) => [item.at, item.text])).toEqual([
      ["/title", "T"],
      ["/inputSchema/properties/a", "a"],
      ["/inputSchema/properties/a/oneOf/0/const", "x"],
      ["/inputSchema/properties/a/oneOf/1/allOf/0/description", "in allOf"],
      ["/inputSchema/properties/b~1c", "b/c"],
      ["/inputSchema/properties/b~1c/items/0/title", "tuple item"],
      ["/inputSchema/properties/b~1c/examples/1", "ex"],
      ["/inputSchema/properties/b~1c/examples/2/nested", "in example"],
      ["/inputSchema/patternProperties/^x-", "^x-"],
      ["/inputSchema/patternProperties/^x-/description", "extension"],
      ["/inputSchema/definitions/old", "old"],
      ["/inputSchema/definitions/old/enum/0", "one"],
      ["/inputSchema/x-vendor/hint", "unknown key text"],
      ["/inputSchema/if/properties/a/const", "y"],
      ["/inputSchema/then/description", "then branch"],
      ["/outputSchema/properties/out", "out"],
      ["/outputSchema/properties/out/description", "result"],
    ]);
  });

  it("lists a text repeated in one tool once, naming the other places", () => {
    const tool = {
      name: "t",
      description: "Mode.",
      inputSchema: { type: "object", properties: { mode: { description: "Mode.", enum: ["fast"], default: "fast" } } },
    };
    expect(toolTexts(tool)).toEqual([
      { at: "/description", text: "Mode.", also: ["/inputSchema/properties/mode/description"] },
      { at: "/inputSchema/properties/mode", text: "mode" },
      { at: "/inputSchema/properties/mode/enum/0", text: "fast", also: ["/inputSchema/properties/mode/default"] },
    ]);
  });
});
