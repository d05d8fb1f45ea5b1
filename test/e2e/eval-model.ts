// The scripted model the eval tests point the real Claude Code at (test/fixtures/eval/scripted-model.mjs),
// started on 127.0.0.1 over a task file. Not a test file itself.
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";

const scriptedModel = join(resolve(import.meta.dirname, "../.."), "test/fixtures/eval/scripted-model.mjs");

/** Start the model with extra arguments (`--cap N`, `--fail-task a,b`); resolves once it listens. */
export function startModel(tasksFile: string, extra: readonly string[] = []): Promise<{ url: string; close: () => void }> {
  const child = spawn(process.execPath, [scriptedModel, tasksFile, ...extra], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((done, fail) => {
    let out = "";
    child.once("exit", (code) => fail(new Error(`scripted-model.mjs exited with ${code}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = /LISTENING (\S+)/.exec(out);
      if (match) done({ url: match[1] as string, close: () => child.kill("SIGTERM") });
    });
  });
}
