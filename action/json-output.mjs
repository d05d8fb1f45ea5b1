// The `json` and `sarif` inputs' files: paths inside the workspace that are written without following
// a symlink, so a symlink committed to the repository cannot turn a report into a write somewhere else.
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** A refused output path; the message names the input and the path as the workflow wrote it. */
export class OutputTargetError extends Error {}

function lstatOrNull(path) {
  try {
    return lstatSync(path);
  } catch (error) {
    if (error?.code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Resolve `input` (the value of the input called `name`, relative to `cwd`) and check it: inside
 * `root` (the real path of the workspace), no part of it below `root` a symlink, every existing
 * parent a folder, the file itself absent or a regular file. Returns the absolute path. Missing
 * parents are allowed (they are made on write).
 */
export function checkOutputTarget(name, input, cwd, root) {
  const target = resolve(cwd, input);
  const rel = relative(root, target);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new OutputTargetError(`The ${name} input "${input}" is outside the workspace (${root}); give a path inside it.`);
  }
  const parts = rel.split(sep);
  let current = root;
  for (const [index, part] of parts.entries()) {
    current = join(current, part);
    const stat = lstatOrNull(current);
    if (stat === null) break;
    const shown = relative(root, current);
    if (stat.isSymbolicLink()) {
      throw new OutputTargetError(`The ${name} input "${input}" goes through a symlink (${shown}); the report is never written through one.`);
    }
    const last = index === parts.length - 1;
    if (!last && !stat.isDirectory()) throw new OutputTargetError(`The ${name} input "${input}" is not a usable path: ${shown} is not a folder.`);
    if (last && !stat.isFile()) throw new OutputTargetError(`The ${name} input "${input}" names something that is not a regular file.`);
  }
  return target;
}

/**
 * Write `data` to the checked path: check again (the tree may have changed since), make missing
 * folders one level at a time, write a fresh temporary file beside the target (O_EXCL, so never
 * through an existing name) and rename it over the target (rename replaces a name, never follows it).
 */
export function writeOutputTarget(name, input, cwd, root, data) {
  const target = checkOutputTarget(name, input, cwd, root);
  const folders = relative(root, dirname(target));
  let current = root;
  for (const part of folders === "" ? [] : folders.split(sep)) {
    current = join(current, part);
    if (lstatOrNull(current) === null) mkdirSync(current);
  }
  checkOutputTarget(name, input, cwd, root);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    writeFileSync(temp, data, { flag: "wx", mode: 0o644 });
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
