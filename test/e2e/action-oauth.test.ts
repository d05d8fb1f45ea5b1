// Issue 26 item 4: in CI the Action logs in to a server behind OAuth with the client-credentials
// grant, the client's secret mapped from a job secret into a variable the input names; without
// those inputs a server that asks for a login fails the check at once (a job has no browser to
// wait for). The secret never reaches the log or the summary.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { seen, startOAuthFixture } from "../fixtures/servers/live/oauth-harness.js";
import { runAction } from "./action-harness.js";
import { cliPath, tempDir } from "./helpers.js";

const SECRET = "ci-secret-0c9d2e71b4";

describe.skipIf(process.platform === "win32")("the Action against a server behind OAuth", () => {
  it("checks the lock with the client-credentials grant from its oauth-* inputs, and fails at once without them", async () => {
    const server = await startOAuthFixture(["--client-id", "ci-bot", "--client-secret", SECRET]);
    const workspace = tempDir();
    const flags = [
      "--oauth-client-credentials",
      "--oauth-client-id",
      "ci-bot",
      "--oauth-client-secret-env",
      "MCP_CLIENT_SECRET",
      "--oauth-issuer",
      server.origin,
    ];
    const made = spawnSync(process.execPath, [cliPath, "lock", "--url", server.url, ...flags], {
      cwd: workspace,
      encoding: "utf8",
      env: { ...process.env, MCP_CLIENT_SECRET: SECRET },
    });
    expect(made.status, made.stderr).toBe(0);

    const inputs = { url: server.url, "oauth-client-id": "ci-bot", "oauth-client-secret-env": "MCP_CLIENT_SECRET", "oauth-issuer": server.origin };
    const passed = runAction(inputs, { MCP_CLIENT_SECRET: SECRET }, workspace);
    expect(passed.status, passed.stdout).toBe(0);
    expect(passed.summary).toContain("Exit code: **0** (passed)");
    expect(passed.stdout + passed.stderr + passed.summary).not.toContain(SECRET);
    expect((await seen(server)).token.client_credentials).toBe(2);

    const without = runAction({ url: server.url }, {}, workspace);
    expect(without.status).toBe(2);
    expect(without.stdout).toContain("the server answered HTTP 401");
    expect((await seen(server)).authorize).toBe(0);

    const bad = runAction({ url: server.url, "oauth-client-id": "ci-bot" }, {}, workspace);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toContain("`oauth-client-id` needs `oauth-client-secret-env` or `oauth-private-key-env`");
  });
});
