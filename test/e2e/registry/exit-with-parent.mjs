// Loaded into Verdaccio before its own code (node --import): when the IPC channel to the test process that
// started it closes, that process is gone without calling stop(), so Verdaccio removes its temp folder and ends.
import { rmSync } from "node:fs";

process.on("disconnect", () => {
  const dir = process.env.MCP_LINT_REGISTRY_DIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
