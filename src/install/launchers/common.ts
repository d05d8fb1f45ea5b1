/** Helpers shared by the launcher parsers: stopping on unknown flags, tagging packages with their launcher. */

import type { FlagWalk } from "../flags.js";
import { type Classified, isPackage } from "../specs/classified.js";
import { safeDisplay } from "../tokens.js";
import type { LaunchParse } from "../types.js";

/** The name of a flag token without any value glued to it (`--token=abc` -> `--token`, `-pX` -> `-p`). */
export function flagName(token: string): string {
  if (token.startsWith("--")) return safeDisplay(token.replace(/=.*$/s, ""));
  return safeDisplay(token.slice(0, 2));
}

/** Record why a flag walk stopped early; true when it did (the package position is then unknown). */
export function noteStop(walk: FlagWalk, result: LaunchParse): boolean {
  if (walk.unknown !== null) {
    result.problems.push({ reason: "unknown_flag", flag: flagName(walk.unknown) });
    return true;
  }
  if (walk.missingValue !== null) {
    result.problems.push({ reason: "missing_package", flag: flagName(walk.missingValue) });
    return true;
  }
  return false;
}

/** Add a classified spec, naming the launcher that fetches it. */
export function addFrom(result: LaunchParse, item: Classified, launcher: string): void {
  if (isPackage(item)) result.packages.push({ ...item, launcher });
  else result.problems.push(item);
}

/** Add a missing-package problem. */
export function missing(result: LaunchParse): void {
  result.problems.push({ reason: "missing_package" });
}
