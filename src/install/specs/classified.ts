/** A classified spec is either a package or a problem; helpers to add either to a launcher's result. */

import type { LaunchParse, PackageRef, Problem } from "../types.js";

/** What a spec classifier returns. */
export type Classified = PackageRef | Problem;

/** True when the classifier found a package. */
export function isPackage(item: Classified): item is PackageRef {
  return "verdict" in item;
}

/** Add a classified spec to a result. */
export function addClassified(result: LaunchParse, item: Classified): void {
  if (isPackage(item)) result.packages.push(item);
  else result.problems.push(item);
}
