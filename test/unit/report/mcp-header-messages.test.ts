// The sentences for an x-mcp-header change and finding: they name the parameter and the header, say
// why a secret matters, and keep a hostile header name inert.
import { describe, expect, it } from "vitest";
import { compareDefinitions } from "../../../src/lock/compare.js";
import type { JsonObject } from "../../../src/lock/snapshot.js";
import { lintServer } from "../../../src/lint/index.js";
import { message } from "../../../src/lint/messages.js";
import { changeMessage } from "../../../src/report/messages.js";
import { expectInert } from "../../hostile-strings.js";

function withParameter(schema: JsonObject): JsonObject {
  return { name: "fetch_invoice", description: "Fetch an invoice.", inputSchema: { type: "object", properties: { api_token: schema } } };
}

describe("mcp_header_changed sentences", () => {
  it("a header added to a token parameter names the header and the secret clue", () => {
    const [change] = compareDefinitions("fetch_invoice", withParameter({ type: "string" }), withParameter({ type: "string", "x-mcp-header": "Auth" }));
    expect(change?.kind).toBe("mcp_header_changed");
    expect(change?.path).toBe("/inputSchema/properties/api_token/x-mcp-header");
    expect(changeMessage(change as NonNullable<typeof change>)).toBe(
      "parameter `api_token` is now copied into HTTP header Mcp-Param-Auth, which every proxy on the way sees (it looks like a secret, by its name)",
    );
  });

  it("a renamed and a removed header say from what to what", () => {
    const before = withParameter({ type: "string", "x-mcp-header": "Auth" });
    const [renamed] = compareDefinitions("t", before, withParameter({ type: "string", "x-mcp-header": "Bearer" }));
    expect(changeMessage(renamed as NonNullable<typeof renamed>)).toContain("Mcp-Param-Bearer instead of Mcp-Param-Auth");
    const [removed] = compareDefinitions("t", before, withParameter({ type: "string" }));
    expect(removed?.severity).toBe("warning");
    expect(changeMessage(removed as NonNullable<typeof removed>)).toBe("parameter `api_token` is no longer copied into HTTP header Mcp-Param-Auth");
  });

  it("a header name with escapes and a workflow command stays inert and quoted", () => {
    const hostile = "X\u001b[2J\n::error::pwned\u202e";
    const [change] = compareDefinitions("t", withParameter({ type: "string" }), withParameter({ type: "string", "x-mcp-header": hostile }));
    const text = changeMessage(change as NonNullable<typeof change>);
    expectInert("mcp_header_changed", text);
    expect(text).toContain('Mcp-Param-"X');
  });
});

describe("mcp-header lint sentences", () => {
  it("says where a secret-looking parameter's value would go", () => {
    const result = lintServer({ tools: [withParameter({ type: "string", description: "Token.", "x-mcp-header": "Auth" })], instructions: null });
    const finding = result.findings.find((item) => item.rule === "mcp-header");
    expect(finding?.severity).toBe("error");
    expect(message(finding as NonNullable<typeof finding>)).toBe(
      'Parameter "api_token" looks like a secret (its name) and carries x-mcp-header, so MCP 2026-07-28 clients send its value in an Mcp-Param- HTTP header every proxy on the way sees.',
    );
  });
});
