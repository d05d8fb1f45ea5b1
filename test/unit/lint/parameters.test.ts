// A tool's parameters by place (branches and references folded), and what makes one self-explanatory.
import { describe, expect, it } from "vitest";
import { buildContext } from "../../../src/lint/context.js";
import { DEFAULT_LINT_OPTIONS, lintServer } from "../../../src/lint/index.js";
import { toolParameters } from "../../../src/lint/parameters.js";
import { pairedValue, selfExplanatory } from "../../../src/lint/params.js";

const view = (inputSchema: unknown) => {
  const [tool] = buildContext([{ name: "t", description: "d", inputSchema }], null, DEFAULT_LINT_OPTIONS).tools;
  if (tool === undefined) throw new Error("no tool");
  return tool;
};

/** A flex-message-like schema: an action union in two places, a span list, and a $ref from one component to another's field. */
const FLEX = {
  type: "object",
  properties: {
    message: {
      type: "object",
      description: "The message.",
      properties: {
        contents: {
          anyOf: [
            {
              type: "object",
              properties: {
                type: { const: "text" },
                contents: {
                  type: "array",
                  items: { type: "object", properties: { text: { type: "string" }, color: { type: "string", pattern: "^#[0-9A-Fa-f]{6}$" } } },
                },
                action: {
                  anyOf: [
                    { type: "object", properties: { type: { const: "postback" }, label: { type: "string" }, data: { type: "string" } } },
                    { type: "object", properties: { type: { const: "uri" }, label: { type: "string" }, uri: { type: "string" } } },
                  ],
                },
              },
            },
            {
              type: "object",
              properties: {
                type: { const: "button" },
                action: { $ref: "#/properties/message/properties/contents/anyOf/0/properties/action" },
                color: { $ref: "#/properties/message/properties/contents/anyOf/0/properties/contents/items/properties/color" },
              },
            },
          ],
        },
      },
    },
  },
};

describe("toolParameters", () => {
  it("folds anyOf branches and $ref targets into one place per property, and names array items with []", () => {
    const places = toolParameters(view(FLEX)).map((parameter) => [parameter.place, parameter.sites.length]);
    expect(places).toEqual([
      ["message", 1],
      ["message.contents", 1],
      ["message.contents.type", 2],
      ["message.contents.contents", 1],
      ["message.contents.contents[].text", 1],
      ["message.contents.contents[].color", 1],
      ["message.contents.action", 2],
      // The button's $ref reaches the text's action union again: the same place and the same
      // declarations, so no more sites (one per branch that declares it).
      ["message.contents.action.type", 2],
      ["message.contents.action.label", 2],
      ["message.contents.action.data", 1],
      ["message.contents.action.uri", 1],
      ["message.contents.color", 1],
    ]);
  });

  it("quotes a property name holding a separator, so a place names one parameter", () => {
    const places = toolParameters(
      view({ type: "object", properties: { "a.b": { type: "string" }, a: { type: "object", properties: { b: { type: "string" } } } } }),
    );
    expect(places.map((parameter) => parameter.place)).toEqual(['["a.b"]', "a", "a.b"]);
  });

  it("keeps places short under nested megabyte names as deep as the walk goes, and still tells two long names apart", () => {
    const long = (letter: string) => letter.repeat(1_000_000);
    let schema: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 30; level++) schema = { type: "object", properties: { [long("a")]: schema } };
    const places = toolParameters(view(schema)).map((parameter) => parameter.place);
    expect(places).toHaveLength(30);
    expect(Math.max(...places.map((place) => place.length))).toBeLessThan(30 * 100);
    const pair = toolParameters(view({ type: "object", properties: { [`${long("b")}1`]: {}, [`${long("b")}2`]: {} } }));
    expect(new Set(pair.map((parameter) => parameter.place)).size).toBe(2);
  });

  it("S3 reports the flex-like schema once per place, with the place as its label (regression: issue 39, one label 18 times)", () => {
    const s3 = lintServer({ tools: [{ name: "push_flex", description: "d", inputSchema: FLEX }] }).findings.filter((finding) => finding.rule === "S3");
    const places = s3.map((finding) => finding.args.place);
    expect(new Set(places).size).toBe(places.length);
    expect(places).toContain("message.contents.action.label");
    expect(s3.find((finding) => finding.args.place === "message.contents.contents[].color")?.args.reason).toBe("self_explanatory");
    expect(s3.find((finding) => finding.args.place === "message.contents.action.label")?.args.reason).toBe("undescribed");
    // A string named for its form (a URI) says what it takes, as a format would.
    expect(s3.find((finding) => finding.args.place === "message.contents.action.uri")?.args.reason).toBe("self_explanatory");
  });
});

describe("selfExplanatory", () => {
  const says = (name: string, schema: Record<string, unknown>, root: unknown = {}) => selfExplanatory(name, schema, root);

  it("an enum of self-describing words", () => {
    expect(says("decoration", { type: "string", enum: ["none", "underline", "line-through"] })).toBe(true);
    expect(says("size", { type: "string", enum: ["xxs", "xs", "sm", "md", "3xl"] })).toBe(true);
    expect(says("inputOption", { enum: ["closeRichMenu", "openRichMenu"] })).toBe(true);
  });

  it("near miss: an enum of codes, IDs or a single value is not", () => {
    expect(says("region", { enum: ["2024-01", "2025-01"] })).toBe(false);
    expect(says("model", { enum: ["a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2"] })).toBe(false);
    expect(says("kind", { enum: ["text"] })).toBe(false);
  });

  it("a boolean named by a verb or an adjective", () => {
    for (const name of ["wrap", "scaling", "includeArchived", "tls_insecure", "deploy_on_push", "enabled", "dryRun"])
      expect(says(name, { type: "boolean" }), name).toBe(true);
  });

  it("near miss: a boolean named by a vague word or a noun", () => {
    for (const name of ["x", "data", "content-type", "summary", "owner"]) expect(says(name, { type: "boolean" }), name).toBe(false);
  });

  it("a number bounded on both sides and named like a unit", () => {
    expect(says("longitude", { type: "number", minimum: -180, maximum: 180 })).toBe(true);
    expect(says("max_pages", { type: "integer", minimum: 1, maximum: 100 })).toBe(true);
  });

  it("near miss: an unbounded number, a type's own range (zod's ±2^53-1), or a name with no unit", () => {
    expect(says("longitude", { type: "number" })).toBe(false);
    expect(says("total_issues", { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 })).toBe(false);
    expect(says("flex", { type: "number", minimum: 0, maximum: 10 })).toBe(false);
  });

  it("a string whose format or pattern tells its form, read through a $ref", () => {
    expect(says("created_at", { type: "string", format: "date-time" })).toBe(true);
    expect(says("paddingTop", { type: "string", pattern: "^\\d+px$" })).toBe(true);
    const root = { $defs: { color: { type: "string", pattern: "^#[0-9A-Fa-f]{6}$" } } };
    expect(says("borderColor", { $ref: "#/$defs/color" }, root)).toBe(true);
  });

  it("near miss: a vague name with a format, or a pattern on a name that is no unit", () => {
    expect(says("id", { type: "string", format: "uuid" })).toBe(false);
    expect(says("code", { type: "string", pattern: "^[A-Z]{3}$" })).toBe(false);
  });

  // Issue 39's survey on servers it was not tuned on: an undescribed free-text field, a URL and a
  // wrapper object whose fields are all described were charged as if the model could not tell what to send.
  it("a string of prose the model writes, or one whose name states its form", () => {
    for (const name of ["title", "commit_message", "releaseNotes", "description", "comment", "email", "repo_clone_url", "webhookUrl"])
      expect(says(name, { type: "string" }), name).toBe(true);
  });

  it("near miss: a prose or form word with a format of its own or a pattern, a vague name, or a name that only starts with one", () => {
    expect(says("message", { type: "string", pattern: "^[A-Z]{3}$" })).toBe(false);
    expect(says("url", { type: "string", format: "binary" })).toBe(false);
    expect(says("data", { type: "string" })).toBe(false);
    for (const name of ["url_template_id", "message_id", "title_filter", "name", "version", "branch"]) expect(says(name, { type: "string" }), name).toBe(false);
  });

  it("an object whose every field is described or explains itself, at any depth, or an array of such objects", () => {
    const papertrail = { type: "object", properties: { endpoint: { type: "string", description: "Papertrail syslog endpoint." } } };
    expect(says("papertrail", papertrail)).toBe(true);
    expect(says("nvidia_gpu_device_plugin", { type: "object", properties: { enabled: { type: "boolean" } } })).toBe(true);
    const dueDateTime = {
      type: ["object", "null"],
      properties: { dateTime: { type: "string", description: "A time." }, timeZone: { type: "string", description: "A zone." } },
    };
    const root = { $defs: { time: dueDateTime } };
    expect(
      says(
        "flag",
        { type: "object", properties: { dueDateTime: { $ref: "#/$defs/time" }, flagStatus: { type: "string", enum: ["flagged", "complete"] } } },
        root,
      ),
    ).toBe(true);
    expect(says("destinations", { type: "array", items: papertrail })).toBe(true);
  });

  it("near miss: an object with an undescribed field, a free-form map, an array of plain strings, or one nested too deep to read", () => {
    expect(says("acl", { type: "object", properties: { topic: { type: "string" }, permission: { type: "string", description: "Read or write." } } })).toBe(
      false,
    );
    expect(says("labels", { type: "object", additionalProperties: { type: "string" } })).toBe(false);
    expect(says("orderHints", { type: "object", properties: {}, additionalProperties: true })).toBe(false);
    expect(says("monitorTags", { type: "array", items: { type: "string" } })).toBe(false);
    let deep: Record<string, unknown> = { type: "object", properties: { enabled: { type: "boolean" } } };
    for (let level = 0; level < 5; level++) deep = { type: "object", properties: { inner: deep } };
    expect(says("outer", deep)).toBe(false);
  });
});

describe("pairedValue", () => {
  it("a scalar value beside its key is not vague; a value of several types, or one with no key beside it, is", () => {
    expect(pairedValue("value", ["key", "value", "is_runtime"], { type: "string" }, {})).toBe(true);
    expect(pairedValue("value", ["tag_name", "value"], { type: "number" }, {})).toBe(true);
    // Desktop Commander's set_config_value: the value's type is open, so what to send needs saying.
    expect(pairedValue("value", ["key", "value"], { anyOf: [{ type: "string" }, { type: "array" }] }, {})).toBe(false);
    expect(pairedValue("value", ["value", "origin"], { type: "string" }, {})).toBe(false);
    expect(pairedValue("data", ["key", "data"], { type: "string" }, {})).toBe(false);
  });
});

// Regression (issue 39): LINE's flex message reaches its box through a recursive $ref, so each
// property of the box was one parameter at "contents.size" and another at "contents.contents[].size",
// both reported at the same declaration.
describe("a declaration reached again through a recursive $ref", () => {
  it("is one parameter, at its shallowest place", () => {
    const box = {
      type: "object",
      properties: { size: { type: "string" }, contents: { type: "array", items: { $ref: "#/$defs/box" } } },
    };
    const tool = view({ type: "object", properties: { contents: { $ref: "#/$defs/box" } }, $defs: { box } });
    const places = toolParameters(tool).map((parameter) => parameter.place);
    expect(places.filter((place) => place.endsWith("size"))).toEqual(["contents.size"]);
  });
});
