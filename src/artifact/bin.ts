/** Which file of an installed package a package runner starts, and the argv that starts it. Pure. */

import { basename, extname, resolve, sep } from "node:path";
import normalizeBin from "npm-normalize-package-bin";
import { ArtifactInstallError } from "../errors.js";
import { capDisplay, neutralize } from "../text/neutralize.js";

/** Bins named in an error before the rest are counted. */
const LISTED_BINS = 20;
const SHOWN = 80;
const NODE_EXTENSIONS = new Set([".js", ".mjs", ".cjs"]);

/**
 * The absolute path of the bin npx would run from this package.json, found in `packageDir`: with
 * `binName` that bin; else the only one (or several names for one file); else the one named like the
 * package without its scope; else an ArtifactInstallError listing the bins. The path never leaves
 * `packageDir`.
 */
export function chooseBin(pkgJson: unknown, packageName: string, binName: string | null, packageDir: string): string {
  const bins = binsOf(pkgJson, packageName);
  const names = Object.keys(bins);
  const who = show(packageName);
  if (names.length === 0) throw new ArtifactInstallError(`${who} has no bin to run`);
  let chosen: string | undefined;
  if (binName !== null) {
    chosen = bins[binName];
    if (chosen === undefined) throw new ArtifactInstallError(`${who} has no bin named ${show(binName)}; its bins: ${listed(names)}`);
  } else if (new Set(Object.values(bins)).size === 1) {
    chosen = bins[names[0] as string];
  } else {
    chosen = bins[packageName.replace(/^@[^/]+\//, "")];
    if (chosen === undefined) throw new ArtifactInstallError(`${who} has several bins and none is named like the package; choose one of: ${listed(names)}`);
  }
  const root = resolve(packageDir);
  const file = resolve(root, chosen as string);
  if (!file.startsWith(`${root}${sep}`)) throw new ArtifactInstallError(`${who} names a bin outside its own folder`);
  return file;
}

/** The package's bins as npm normalizes them (`bin` as a string, array or map; unsafe names and `..` removed). */
function binsOf(pkgJson: unknown, packageName: string): Record<string, string> {
  if (typeof pkgJson !== "object" || pkgJson === null) return {};
  const { name, bin } = pkgJson as { name?: unknown; bin?: unknown };
  // A copy: npm's normalizer edits in place. A string bin is named after the package.
  const normalized = normalizeBin({ name: typeof name === "string" ? name : packageName, bin });
  const out: Record<string, string> = Object.create(null);
  if (typeof normalized.bin !== "object" || normalized.bin === null) return out;
  for (const [key, value] of Object.entries(normalized.bin)) if (typeof value === "string") out[key] = value;
  return out;
}

/**
 * The argv that starts `bin`: `[execPath, ...shebang flags, bin, ...args]` for a Node script (a shebang that
 * runs node, or no shebang and a .js/.mjs/.cjs name), so it runs on this Node whatever PATH holds; else
 * `[bin, ...args]`. `head` is the start of the file (its first line is enough).
 */
export function launchArgv(bin: string, args: readonly string[], head: string, execPath: string = process.execPath): string[] {
  const shebang = nodeShebang(head);
  if (shebang === "other") return [bin, ...args];
  if (shebang !== null) return [execPath, ...shebang, bin, ...args];
  return NODE_EXTENSIONS.has(extname(bin).toLowerCase()) ? [execPath, bin, ...args] : [bin, ...args];
}

/** The node flags of a `#!` line that runs node, "other" for one that runs something else, null without one. */
function nodeShebang(head: string): string[] | "other" | null {
  if (!head.startsWith("#!")) return null;
  const line = head.slice(2).split(/\r?\n/, 1)[0] ?? "";
  const words = line
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  let index = 0;
  if (basename(words[0] ?? "") === "env") {
    index = 1;
    // env's own options (-S, -i) and NAME=value settings come before the program.
    while (index < words.length && (words[index]?.startsWith("-") === true || words[index]?.includes("=") === true)) index++;
  }
  const program = basename(words[index] ?? "");
  if (program !== "node" && program !== "nodejs") return "other";
  return words.slice(index + 1);
}

function listed(names: string[]): string {
  const sorted = [...names].sort();
  const shown = sorted.slice(0, LISTED_BINS).map(show).join(", ");
  return sorted.length > LISTED_BINS ? `${shown} and ${sorted.length - LISTED_BINS} more` : shown;
}

function show(text: string): string {
  return capDisplay(neutralize(text), SHOWN);
}
