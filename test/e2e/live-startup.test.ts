// Issue 11, item 5: starting a server says what is happening and why it failed. A progress line on
// a terminal (never in a pipe), --timeout named in a timeout, the stderr lines that explain a
// failure (not only the last one), certificate-path variables passed by default, unpassed proxy
// variables named, a warning for an unset --pass-env, and --url errors that give the cause.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, runCli, tempDir, writeJson } from "./helpers.js";
import { expectOneLineError, fixture, runScript, startHttpFixture, stopAllHttpFixtures } from "../fixtures/servers/live/harness.js";

const node = process.execPath;
/** Certificate variables of this machine, removed where a test needs them truly absent. */
const CERT_VARIABLES = ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"];
const PROXY_VARIABLES = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"];

let certDir = "";
let cert = "";
let key = "";
let httpsServer: HttpsServer;
let httpsUrl = "";

beforeAll(async () => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
  // A self-signed certificate for 127.0.0.1, made here: only NODE_EXTRA_CA_CERTS makes it trusted.
  certDir = tempDir();
  cert = join(certDir, "cert.pem");
  key = join(certDir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  // Stands in for a registry behind a TLS-intercepting corporate proxy.
  httpsServer = createHttpsServer({ cert: readFileSync(cert), key: readFileSync(key) }, (_req, res) => res.end("ok"));
  await new Promise<void>((done) => httpsServer.listen(0, "127.0.0.1", done));
  const address = httpsServer.address();
  httpsUrl = `https://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/some-server`;
});
afterAll(async () => {
  await new Promise((done) => httpsServer?.close(done));
});
afterEach(async () => {
  await stopAllHttpFixtures();
});

/** A folder with a fake `npx` that starts slow-start.mjs, as a first `npx -y` download would. */
function fakeNpx(delayMs: number): string {
  const bin = join(tempDir(), "bin");
  mkdirSync(bin);
  const npx = join(bin, "npx");
  writeFileSync(npx, `#!/bin/sh\nexec ${JSON.stringify(node)} ${JSON.stringify(fixture("slow-start.mjs"))} ${delayMs}\n`);
  chmodSync(npx, 0o755);
  return bin;
}

/** Run the CLI with stdout and stderr on a pseudo-terminal (util-linux `script`). */
function runOnTerminal(args: string[], options: { cwd: string; env: Record<string, string> }): Promise<{ code: number | null; output: string }> {
  const quote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
  const command = [node, cliPath, ...args].map(quote).join(" ");
  return new Promise((done, fail) => {
    const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code, output }));
  });
}

const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("a server that is slow to start", () => {
  it.runIf(hasScript)("on a terminal: a progress line naming npx while it starts, then cleared, and the lock is written", async () => {
    const dir = tempDir();
    const bin = fakeNpx(2500);
    const result = await runOnTerminal(["lock", "--", "npx", "-y", "slow-server@1.0.0"], {
      cwd: dir,
      env: { PATH: `${bin}:${process.env.PATH ?? ""}` },
    });
    expect(result.code, result.output).toBe(0);
    const line = "mcp-lint: starting server (npx may be downloading it)...";
    expect(result.output).toContain(line);
    // Cleared in place before anything else is printed.
    expect(result.output).toContain(`${line}\r${" ".repeat(line.length)}\r`);
    expect(result.output).toMatch(/Wrote mcp-lint\.lock \(2 tools\)/);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(true);
  });

  it("not on a terminal: no progress line at all", async () => {
    const dir = tempDir();
    const bin = fakeNpx(1500);
    const result = await runCli(["lock", "--", "npx", "-y", "slow-server@1.0.0"], { cwd: dir, env: { PATH: `${bin}:${process.env.PATH ?? ""}` } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/starting server/);
    expect(result.stderr).not.toContain("\r");
  });

  it("a start-up longer than --timeout: one line naming initialize and --timeout, quoting its stderr", async () => {
    const dir = tempDir();
    // 3 s: under load the server needs a while to print its first line, which the error must quote.
    const result = await runCli(["lock", "--timeout", "3", "--", node, fixture("slow-start.mjs"), "10000"], { cwd: dir });
    expect(result.code).toBe(2);
    const line = expectOneLineError(result.stderr);
    expect(line).toMatch(/no answer to initialize within 3 s/);
    expect(line).toMatch(/--startup-timeout/);
    expect(line).toContain("slow-start: fetching packages...");
  });
});

describe("why a start failed", () => {
  it("quotes the stderr lines that explain it (npm's error code and reason), not only the last line", async () => {
    const dir = tempDir();
    const result = await runCli(["lock", "--", node, fixture("fails-like-npm.mjs")], { cwd: dir });
    expect(result.code).toBe(2);
    const line = expectOneLineError(result.stderr);
    expect(line).toMatch(/exited with code 1 before answering initialize/);
    expect(line).toContain("npm error code SELF_SIGNED_CERT_IN_CHAIN");
    expect(line).toContain("reason: self-signed certificate in certificate chain");
    expect(line).toContain("npm verbose exit 1");
    expect(line.length).toBeLessThan(1_000);
  });

  it("certificate-path variables reach the server without --pass-env (npx behind a corporate CA works)", async () => {
    const dir = tempDir();
    const result = await runScript(cliPath, ["lock", "--", node, fixture("needs-ca.mjs"), httpsUrl], {
      cwd: dir,
      unset: [...CERT_VARIABLES, ...PROXY_VARIABLES],
      env: { NODE_EXTRA_CA_CERTS: cert },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(true);
  });

  it("without the CA: the TLS failure is quoted from stderr", async () => {
    const dir = tempDir();
    const result = await runScript(cliPath, ["lock", "--", node, fixture("needs-ca.mjs"), httpsUrl], {
      cwd: dir,
      unset: [...CERT_VARIABLES, ...PROXY_VARIABLES],
    });
    expect(result.code).toBe(2);
    const line = expectOneLineError(result.stderr);
    expect(line).toMatch(/npm error code DEPTH_ZERO_SELF_SIGNED_CERT/);
    expect(line).toMatch(/self-signed certificate/);
    expect(line).not.toMatch(/--pass-env/);
  });

  it("proxy variables set here but not passed are named with the --pass-env that would pass them", async () => {
    const dir = tempDir();
    const result = await runScript(cliPath, ["lock", "--", node, fixture("needs-ca.mjs"), httpsUrl], {
      cwd: dir,
      unset: [...CERT_VARIABLES, ...PROXY_VARIABLES],
      env: { HTTPS_PROXY: "http://proxy-user:proxy-pass-771@proxy.invalid:3128", no_proxy: "localhost" },
    });
    expect(result.code).toBe(2);
    const line = expectOneLineError(result.stderr);
    expect(line).toMatch(/HTTPS_PROXY, no_proxy are set here but not passed/);
    expect(line).toContain("--pass-env HTTPS_PROXY --pass-env no_proxy");
    expect(line).not.toContain("proxy-pass-771");
  });

  it("--pass-env NAME with NAME unset: one warning line, and the server still starts", async () => {
    const dir = tempDir();
    const tools = writeJson(dir, "tools.json", { tools: [{ name: "t", description: "A tool.", inputSchema: { type: "object" } }] });
    const result = await runScript(cliPath, ["lock", "--pass-env", "MCP_LINT_TEST_UNSET_VAR", "--", node, fixture("changing.mjs"), tools], {
      cwd: dir,
      unset: ["MCP_LINT_TEST_UNSET_VAR"],
    });
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr.split("\n").filter((line) => line.includes("MCP_LINT_TEST_UNSET_VAR"));
    expect(warnings).toEqual([
      "mcp-lint: warning: --pass-env MCP_LINT_TEST_UNSET_VAR: MCP_LINT_TEST_UNSET_VAR is not set here, so the server starts without it",
    ]);
  });
});

describe("--url errors give the cause", () => {
  it("connection refused", async () => {
    const server = await startHttpFixture();
    await server.stop();
    const result = await runCli(["lock", "--timeout", "5", "--url", server.url], { cwd: tempDir() });
    expect(result.code).toBe(2);
    const line = expectOneLineError(result.stderr);
    expect(line).toMatch(/connection refused: nothing is listening on 127\.0\.0\.1 port \d+/);
    expect(line).not.toMatch(/fetch failed/);
  });

  it("a port fetch blocks is named as such, not as a bare fetch failure", async () => {
    const result = await runCli(["lock", "--timeout", "5", "--url", "http://127.0.0.1:6667/mcp"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    const line = expectOneLineError(result.stderr);
    expect(line).toMatch(/fetch refuses to connect to port 6667, one of the ports it blocks/);
    expect(line).not.toMatch(/fetch failed/);
  });

  it("DNS lookup failed", async () => {
    const result = await runCli(["lock", "--timeout", "10", "--url", "http://no-such-host.invalid/mcp"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    const line = expectOneLineError(result.stderr);
    expect(line).toMatch(/DNS lookup failed/);
    expect(line).toContain("no-such-host.invalid");
  });

  it("TLS: a self-signed certificate is named, with the NODE_EXTRA_CA_CERTS hint; trusting it works", async () => {
    const server = await startHttpFixture(["--tls-cert", cert, "--tls-key", key]);
    expect(server.url).toMatch(/^https:/);
    const failed = await runScript(cliPath, ["lock", "--timeout", "10", "--url", server.url], {
      cwd: tempDir(),
      unset: [...CERT_VARIABLES, ...PROXY_VARIABLES],
    });
    expect(failed.code).toBe(2);
    const line = expectOneLineError(failed.stderr);
    expect(line).toMatch(/TLS certificate error from 127\.0\.0\.1 \(DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate\)/);
    expect(line).toMatch(/NODE_EXTRA_CA_CERTS/);

    const dir = tempDir();
    const trusted = await runScript(cliPath, ["lock", "--url", server.url], {
      cwd: dir,
      unset: [...CERT_VARIABLES, ...PROXY_VARIABLES],
      env: { NODE_EXTRA_CA_CERTS: cert },
    });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, "mcp-lint.lock"), "utf8")).tools)).toEqual(["get_time", "get_weather"]);
  });

  it("a server that accepts the connection and never answers: the timeout names --timeout", async () => {
    const sockets = new Set<Socket>();
    const silent: TcpServer = createTcpServer((socket) => {
      sockets.add(socket);
      socket.resume();
    });
    await new Promise<void>((done) => silent.listen(0, "127.0.0.1", done));
    const address = silent.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const result = await runCli(["lock", "--timeout", "1", "--url", `http://127.0.0.1:${port}/mcp`], { cwd: tempDir() });
      expect(result.code).toBe(2);
      const line = expectOneLineError(result.stderr);
      expect(line).toMatch(/no answer to initialize within 1 s; raise --timeout/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => silent.close(done));
    }
  });
});
