/** Annotations and unknown keys: strings the model reads are text, every other difference is structural. */

import { emit, keyPath, type Rule, type SchemaNode } from "../context.js";
import { canonical, deepEqual, hasNonString, own, stringsKey } from "../json.js";
import { keywordInfo } from "../keywords.js";

/** Text keys (description, title, default, examples, ...) and unknown keys (x-*, hint, ...). */
export const annotationsRule: Rule = {
  roles: ["text", "unknown"],
  run(node, keys) {
    for (const key of keys) compareText(node, key);
  },
};

/** Compares an annotation value deeply: string differences are text, the rest of its shape is structural. */
function compareText(node: SchemaNode, key: string): void {
  const before = own(node.before, key);
  const after = own(node.after, key);
  if (deepEqual(before, after)) return;
  const path = keyPath(node, key);
  // `default: null` on an optional parameter says what leaving it out says: no words, nothing validates.
  if (key === "default" && (before ?? null) === null && (after ?? null) === null) {
    emit(node, "annotation_changed", path, { keyword: key }, { info: true });
    return;
  }
  if (keywordInfo(key).wholeValueIsText === true) {
    // The model reads the whole value: `allow_external` defaulting to true instead of false is a text edit.
    emit(node, before === undefined ? "text_added" : after === undefined ? "text_removed" : "text_changed", path, {
      keyword: key,
    });
    return;
  }
  const textChanged = stringsKey(before) !== stringsKey(after);
  if (textChanged) {
    const reason = before === undefined ? "text_added" : after === undefined ? "text_removed" : "text_changed";
    emit(node, reason, path, { keyword: key });
  }
  // A list of strings growing is only text; numbers, booleans or nulls changing (x-order 1 -> 2) are not.
  // A value that differs in neither (an empty object appearing under a new key, {} becoming []) is still
  // a change: the key itself is text the model reads, and a definition that changed reports something.
  const shapeChanged = shape(before) !== shape(after);
  if (shapeChanged && (hasNonString(before) || hasNonString(after) || !textChanged)) {
    emit(node, "annotation_changed", path, { keyword: key });
  }
}

/** The non-string shape of a value; absent differs from `null`. */
function shape(value: unknown): string {
  return value === undefined ? "" : canonical(value, true);
}
