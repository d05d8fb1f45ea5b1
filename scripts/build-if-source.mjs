// After `npm install` in a source checkout, build dist/ if it is missing: pre-commit installs the
// hook that way (npm install, then npm pack, whose stdout must be only the tarball name, so no
// pack-time script may print). In the published package there is no src/, so this does nothing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = `${root}node_modules/typescript/bin/tsc`;
if (existsSync(`${root}src/cli.ts`) && !existsSync(`${root}dist/cli.js`) && existsSync(tsc)) {
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  process.exitCode = result.status ?? 1;
}
