/** pattern, format, contentEncoding, contentMediaType: any change or removal widens, an addition narrows. */

import { emit, keyPath, type Rule } from "../context.js";
import { showValue } from "../finding.js";
import { deepEqual, own } from "../json.js";

// A new pattern or format is not provably looser or stricter than the old one, so any change widens.
/** String-valued assertions compared as opaque values. */
export const assertionsRule: Rule = {
  roles: ["assertion"],
  run(node, keys) {
    for (const key of keys) {
      const before = own(node.before, key);
      const after = own(node.after, key);
      if (deepEqual(before, after)) continue;
      const path = keyPath(node, key);
      const args = { keyword: key, before: showValue(before), after: showValue(after) };
      if (before === undefined) emit(node, "assertion_added", path, args);
      else if (after === undefined) emit(node, "assertion_removed", path, args);
      else emit(node, "assertion_changed", path, args);
    }
  },
};
