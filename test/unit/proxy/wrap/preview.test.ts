// What `wrap --dry-run` prints: only the edited entries' changed lines, other entries' text and
// every env and header value kept out, on a one-line config too.
import { describe, expect, it } from "vitest";
import { previewPatch } from "../../../../src/proxy/wrap/preview.js";
import { makeRedactor } from "../../../../src/text/redact.js";

const TOKEN = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";
const HEADER = "Bearer sk-remote-9876543210fedcba";

describe("previewPatch", () => {
  const before = `{"mcpServers": {"fs": {"command": "node", "args": ["fs.js"], "env": {"GITHUB_TOKEN": "${TOKEN}"}}, "remote": {"url": "https://x.example/mcp", "headers": {"Authorization": "${HEADER}"}}, "other": {"command": "uvx", "args": ["other-server"]}}}`;
  const entry = (text: string) => {
    const start = text.indexOf('{"command"');
    return { start, end: text.indexOf("}}", start) + 2 };
  };
  const after = before.replace(
    '"command": "node", "args": ["fs.js"]',
    '"command": "npx", "args": ["-y", "mcp-lint@0.1.0", "proxy", "--lock", "/l/fs.lock", "--", "node", "fs.js"]',
  );
  const redactor = makeRedactor([TOKEN, HEADER]);

  it("on a one-line config, cuts the changed line to the edited entry: no other entry, no token, no header", () => {
    const shown = previewPatch("/p/mcp.json", before, after, { before: [entry(before)], after: [entry(after)] }, (text) => redactor.text(text));
    expect(shown).toContain('-...{"command": "node", "args": ["fs.js"], "env": {"GITHUB_TOKEN": "[redacted]"}}...');
    expect(shown).toContain('"command": "npx"');
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain("sk-remote");
    expect(shown).not.toContain("remote");
    expect(shown).not.toContain("other-server");
  });

  it("shows short changed lines whole, and keeps line numbers", () => {
    const text = "a\nb\nc\n";
    expect(previewPatch("/p/x.yaml", text, "a\nB\nc\n", { before: null, after: null }, (line) => line)).toBe(
      "--- /p/x.yaml\n+++ /p/x.yaml\n@@ -2,1 +2,1 @@\n-b\n+B\n",
    );
  });
});
