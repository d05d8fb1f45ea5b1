// crosscheck with the real clients of test/clients against a hostile server under test
// (fixtures/crosscheck/forging-server.mjs): before it serves, it posts a forged copy of its tools to
// the model endpoint of the client that started it, with every key-like variable that client gave
// it. The same run serves twelve tools that each declare an outputSchema, which no agent client
// shows its model: one finding shared by every tool and client, shown once.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type ClientId, crosscheck, lines, prepareClients, runnable, runs } from "./crosscheck-clients.js";
import { repo, tempDir } from "./helpers.js";

const forgingServer = join(repo, "test/fixtures/crosscheck/forging-server.mjs");
const manyOutputs = join(repo, "test/fixtures/crosscheck/many-outputs.json");
const TOOLS: string[] = JSON.parse(readFileSync(manyOutputs, "utf8")).tools.map((tool: { name: string }) => tool.name);

/** Where each agent client hands its server the endpoint's address. */
const SOURCE: Partial<Record<ClientId, string>> = {
  "claude-code": "ANTHROPIC_BASE_URL",
  codex: "codex config.toml",
  "gemini-cli": "GOOGLE_GEMINI_BASE_URL",
};
const LABEL: Record<ClientId, string> = { "claude-code": "Claude Code", codex: "Codex", "gemini-cli": "Gemini CLI", inspector: "MCP Inspector" };

interface Attempt {
  source: string;
  shape: string;
  credential: string;
  status: number | null;
}

beforeAll(() => prepareClients(), 600_000);

describe("crosscheck with real clients: a server that forges its clients' model requests", () => {
  let run: Awaited<ReturnType<typeof crosscheck>>;
  let attempts: Attempt[];
  beforeAll(async () => {
    const log = join(tempDir(), "forged.jsonl");
    run = await crosscheck(["--", "node", forgingServer, log, manyOutputs]);
    attempts = existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line))
      : [];
  }, 300_000);

  // Regression (issue 37, item 6): the endpoint took the first request with the server's tools from anyone, and
  // Claude Code hands a stdio server its own environment, API key included.
  it("each forged request is refused, and each client's own request is the capture", () => {
    expect(run.stderr).not.toMatch(/\n\s+at /);
    for (const attempt of attempts) expect(attempt.status, JSON.stringify(attempt)).toBe(401);
    for (const id of runnable) {
      const client = run.client(id);
      expect(client?.status, `${id}: ${client?.reason}`).toBe("compared");
      expect(client?.shown, id).toBe(TOOLS.length);
      const source = SOURCE[id];
      if (source === undefined) continue;
      // The server found this client's endpoint and posted to it (so the refusal was tested), every time refused.
      const posted = attempts.filter((attempt) => attempt.source === source);
      expect(posted.length, id).toBeGreaterThan(0);
      expect(client?.refused, id).toBe(posted.length);
      // What is compared is the client's own rendering: the forged descriptions are nowhere.
      expect(lines(client), id).toEqual(TOOLS.map((tool) => `render-output-lost ${tool} /outputSchema not-shown`));
    }
    expect(`${run.stdout}${JSON.stringify(run.report)}`).not.toContain("Forged copy");
  });

  it("the server got no key from Claude Code: it tried none, or an empty one", () => {
    if (!runs("claude-code")) return;
    expect(attempts.filter((attempt) => attempt.credential === "ANTHROPIC_API_KEY")).toEqual([]);
  });

  // Regression (issue 37, item 4): one line per tool per client ("does not show its model this tool's outputSchema" 14 times per client).
  it("a finding every tool shares in every agent client is one line naming the count, five tools and the clients", () => {
    const agents = runnable.filter((id) => id !== "inspector").map((id) => LABEL[id]);
    if (agents.length === 0) return;
    const subject = agents.length === 1 ? agents[0] : `Each of ${agents.slice(0, -1).join(", ")} and ${agents.at(-1)}`;
    const shown = run.stdout.split("\n").filter((line) => line.includes("[render-output-lost]"));
    expect(shown).toEqual([
      `  i 12 tools (${TOOLS.slice(0, 5).join(", ")} and 7 more): ${subject} does not show its model this tool's outputSchema. [render-output-lost]`,
    ]);
    expect(run.stdout).toContain("\n1 distinct finding (--json lists each tool and client on its own):\n");
    // The JSON report keeps one finding per tool per client.
    for (const id of runnable) expect(run.client(id)?.findings.length, id).toBe(id === "inspector" ? 0 : TOOLS.length);
  });
});
