// The start-up shortcut must never skip a launch that the full install lint would refuse.
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
  ];
  for (const argv of refused) {
    it(`keeps ${argv.join(" ")} for the full check, which refuses it`, () => {
      expect(knownBadLaunch(argv, list)).not.toBeNull();
      expect(mayNameKnownBad(argv)).toBe(true);
    });
  }

  it("keeps escaped and percent-encoded spellings too, even ones the full check leaves unparsed", () => {
    expect(mayNameKnownBad(["cmd", "/c", "npx", "-y", "post^mark-mcp@1.0.16"])).toBe(true);
    expect(mayNameKnownBad(["npx", "-y", "https://registry.example/postmark%2Dmcp-1.0.16.tgz"])).toBe(true);
    expect(mayNameKnownBad(["npx", "-y", "https://registry.example/postmark%252Dmcp-1.0.16.tgz"])).toBe(true);
  });

  it("lets an unrelated launch skip the full check", () => {
    expect(mayNameKnownBad(["node", "server.js"])).toBe(false);
    expect(mayNameKnownBad(["npx", "-y", "@modelcontextprotocol/server-filesystem@2025.3.28", "/tmp"])).toBe(false);
  });

  it("never says no to a launch the full check refuses (property)", () => {
    const word = fc.oneof(
      fc.constantFrom("npx", "-y", "uvx", "sh", "-c", "pip", "install", "cmd", "/c", "--from", "==", "@"),
      fc.constantFrom("postmark-mcp", "postmark_mcp@1.0.16", "litellm==1.82.7", "LiteLLM", "litellm[proxy]==1.82.8", "1.0.16", "1.107.0"),
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
