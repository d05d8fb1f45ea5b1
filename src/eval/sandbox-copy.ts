/**
 * The per-run copy of the eval sandbox, a copy and never a door (issue 42): `eval --run` refuses a
 * sandbox that is a link, or holds a link that leads outside it (or nowhere), before any run, and
 * checks every copy the same way before the agent works in it.
 */

import { cp, lstat, readdir, readlink, realpath } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { UsageError } from "../errors.js";
import { isInside } from "./trust.js";

/**
 * Why the sandbox at `root` cannot be copied for a run, as the rest of a sentence about it, or
 * null. Links are allowed only when relative and resolving, links followed, inside the sandbox: a
 * copy keeps a link's text, so such a link leads inside the copy too, and nothing else does.
 * Anything that is neither a file, a folder nor a link (a FIFO, a socket, a device) is refused.
 */
export async function sandboxProblem(root: string): Promise<string | null> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "does not exist";
    throw error;
  }
  if (info.isSymbolicLink()) return "is a symbolic link: a run would work in the folder it leads to";
  if (!info.isDirectory()) return "is not a folder";
  const realRoot = await realpath(root);
  const folders = [root];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const shown = relative(root, path);
      if (entry.isDirectory()) folders.push(path);
      else if (entry.isSymbolicLink()) {
        const target = await readlink(path);
        if (isAbsolute(target)) return `holds ${shown}, a link to the absolute path ${target}`;
        let real: string;
        try {
          real = await realpath(path);
        } catch {
          return `holds ${shown}, a link that leads nowhere (${target})`;
        }
        if (!isInside(realRoot, real)) return `holds ${shown}, a link that leads outside it (to ${real})`;
      } else if (!entry.isFile()) return `holds ${shown}, which is neither a file, a folder nor a link`;
    }
  }
  return null;
}

/**
 * Copy the sandbox for one run (links kept as they are written), then check the copy as the
 * sandbox was checked before the first run: one that fails now changed meanwhile, and the run stops.
 */
export async function copySandbox(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  const problem = await sandboxProblem(to);
  if (problem !== null)
    throw new UsageError(
      `eval --run: the run's copy of the sandbox ${from} ${problem}; the sandbox changed during the run, so the run stopped before the agent started`,
    );
}
