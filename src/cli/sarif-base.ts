/** The folder SARIF artifact URIs are relative to: the git work tree root above the working directory, or the working directory. */

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SarifBase } from "../report/sarif.js";

/**
 * Code scanning resolves a result's URI against the repository root, so URIs start there: the
 * nearest folder at or above `cwd` holding `.git` (a folder, or the file a worktree or submodule
 * has). Outside any work tree they start at `cwd`.
 */
export function sarifBase(cwd: string = process.cwd()): SarifBase {
  for (let dir = cwd; ; ) {
    if (existsSync(join(dir, ".git"))) return { dir, kind: "git-root" };
    const parent = dirname(dir);
    if (parent === dir) return { dir: cwd, kind: "working-directory" };
    dir = parent;
  }
}
