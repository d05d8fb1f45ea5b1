/** Numeric limits, multipleOf and uniqueItems: a limit removed, loosened or made a non-number widens. */

import { emit, keyPath, type Rule, type SchemaNode } from "../context.js";
import { showValue } from "../finding.js";
import { deepEqual, isNumber, type JsonObject, own } from "../json.js";
import { type KeywordInfo, keywordInfo } from "../keywords.js";

/** Length, item, property and contains counts, numeric bounds and their exclusive forms, multipleOf, uniqueItems. */
export const limitsRule: Rule = {
  roles: ["upperLimit", "lowerLimit", "multipleOf", "flag"],
  run(node, keys) {
    const done = new Set<string>();
    for (const [flag, bound] of EXCLUSIVE) {
      if (keys.includes(flag) && compareExclusiveForms(node, flag, bound)) done.add(flag).add(bound);
    }
    for (const key of keys) {
      if (done.has(key)) continue;
      const info = keywordInfo(key);
      if (info.role === "multipleOf") compareMultipleOf(node, key);
      else if (info.role === "flag") compareFlag(node, key);
      else if (info.flagFor !== undefined) compareExclusive(node, key, info, info.flagFor);
      else compareLimit(node, key, info);
    }
  },
};

const EXCLUSIVE = [
  ["exclusiveMaximum", "maximum"],
  ["exclusiveMinimum", "minimum"],
] as const;

/** An exclusive bound in either spelling: draft-04 `maximum: 5, exclusiveMaximum: true`, or later `exclusiveMaximum: 5` alone. */
function exclusiveBound(schema: { readonly [key: string]: unknown }, flag: string, bound: string): { form: "boolean" | "number"; value: number } | undefined {
  const f = own(schema, flag);
  const b = own(schema, bound);
  if (f === true && isNumber(b)) return { form: "boolean", value: b };
  if (isNumber(f) && !Object.hasOwn(schema, bound)) return { form: "number", value: f };
  return undefined;
}

/**
 * The same exclusive bound rewritten from one spelling to the other (draft-04 boolean to the 2020-12 number, or
 * back) is compared as one bound: equal is no change, else loosened or tightened. Returns true when handled.
 */
function compareExclusiveForms(node: SchemaNode, flag: string, bound: string): boolean {
  const before = exclusiveBound(node.before, flag, bound);
  const after = exclusiveBound(node.after, flag, bound);
  if (before === undefined || after === undefined || before.form === after.form) return false;
  if (before.value === after.value) return true;
  const info = keywordInfo(flag);
  const args = { keyword: flag, before: before.value, after: after.value };
  emit(node, (after.value - before.value) * looseness(info) > 0 ? "limit_loosened" : "limit_tightened", keyPath(node, flag), args);
  return true;
}

/** +1 when a bigger value is looser (an upper limit), -1 for a lower limit. */
function looseness(info: KeywordInfo): number {
  return info.role === "upperLimit" ? 1 : -1;
}

function compareLimit(node: SchemaNode, key: string, info: KeywordInfo): void {
  const path = keyPath(node, key);
  // Presence, not `??`: a null limit is a (broken) value, not an absent one.
  const before = Object.hasOwn(node.before, key) ? own(node.before, key) : info.defaultValue;
  const after = Object.hasOwn(node.after, key) ? own(node.after, key) : info.defaultValue;
  if (deepEqual(before, after)) {
    // Spelling out a default (minContains: 1) changes the text but not what validates.
    if (!deepEqual(own(node.before, key), own(node.after, key))) {
      emit(node, "limit_changed", path, {
        keyword: key,
        before: showValue(own(node.before, key)),
        after: showValue(own(node.after, key)),
      });
    }
    return;
  }
  const args = { keyword: key, before: showValue(before), after: showValue(after) };
  if (before === undefined) {
    emit(node, "limit_added", path, { keyword: key, after: showValue(after) });
  } else if (after === undefined) {
    emit(node, "limit_removed", path, { keyword: key, before: showValue(before) });
  } else if (!isNumber(after)) {
    emit(node, "limit_not_number", path, args);
  } else if (!isNumber(before)) {
    emit(node, "limit_changed", path, args);
  } else if ((after - before) * looseness(info) > 0) {
    emit(node, "limit_loosened", path, args);
  } else {
    emit(node, "limit_tightened", path, args);
  }
}

/**
 * exclusiveMaximum/exclusiveMinimum. A number is its own limit (2020-12, draft-06+). A boolean (draft-04)
 * makes the sibling bound exclusive, so dropping `true` while that bound stays loosens it.
 */
function compareExclusive(node: SchemaNode, key: string, info: KeywordInfo, bound: string): void {
  const before = own(node.before, key);
  const after = own(node.after, key);
  if (deepEqual(before, after)) return;
  const path = keyPath(node, key);
  const isFlag = (v: unknown): boolean => v === undefined || typeof v === "boolean";
  const boundBefore = own(node.before, bound);
  const boundAfter = own(node.after, bound);
  const sameBound = isNumber(boundBefore) && isNumber(boundAfter) && boundBefore === boundAfter;
  const lostFlag = before === true && after !== true;
  if (isFlag(before) && isFlag(after)) {
    const args = { keyword: key, before: showValue(before), after: showValue(after) };
    if (sameBound) emit(node, lostFlag ? "limit_loosened" : "limit_tightened", path, args);
    else emit(node, "limit_changed", path, args);
    return;
  }
  compareLimit(node, key, info);
  // true -> 5 next to an unchanged bound: the bound itself became inclusive.
  if (lostFlag && sameBound) {
    emit(node, "limit_loosened", path, { keyword: key, before: showValue(before), after: showValue(after) });
  }
}

function compareMultipleOf(node: SchemaNode, key: string): void {
  // Where only one side admits integers only, that side is a multiple of 1 (`type: "number", multipleOf: 1`
  // is normalized to `type: "integer"`): a step of 2 becoming 1 reads as one loosened limit, not as
  // multipleOf removed.
  const implied = integerOnly(node.before) !== integerOnly(node.after);
  const before = own(node.before, key) ?? (implied && integerOnly(node.before) ? 1 : undefined);
  const after = own(node.after, key) ?? (implied && integerOnly(node.after) ? 1 : undefined);
  if (deepEqual(before, after)) return;
  const path = keyPath(node, key);
  const args = { keyword: key, before: showValue(before), after: showValue(after) };
  const valid = (v: unknown): v is number => isNumber(v) && v > 0;
  if (before === undefined) emit(node, "multiple_of_added", path, args);
  else if (after === undefined) emit(node, "multiple_of_removed", path, args);
  else if (!valid(after)) emit(node, "limit_not_number", path, args);
  else if (!valid(before)) emit(node, "limit_changed", path, args);
  else if (isExactMultiple(after, before)) emit(node, "multiple_of_tightened", path, args);
  else emit(node, implied && isExactMultiple(before, after) ? "limit_loosened" : "multiple_of_changed", path, args);
}

/** True when the schema's `type` names `integer` and nothing else. */
function integerOnly(schema: JsonObject): boolean {
  const type = own(schema, "type");
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : [];
  return types.length > 0 && types.every((t) => t === "integer");
}

/**
 * True when every multiple of `next` is a multiple of `prev`. Validators divide in floating point, so for
 * fractions (0.1 -> 0.3) they can disagree with arithmetic; only integer steps are trusted.
 */
function isExactMultiple(next: number, prev: number): boolean {
  return Number.isSafeInteger(next) && Number.isSafeInteger(prev) && next % prev === 0;
}

/** uniqueItems: only `true` constrains; false and absent are the same. */
function compareFlag(node: SchemaNode, key: string): void {
  const before = own(node.before, key);
  const after = own(node.after, key);
  if (deepEqual(before, after)) return;
  const path = keyPath(node, key);
  if (before === true) emit(node, "unique_items_removed", path, { keyword: key });
  else if (after === true) emit(node, "unique_items_added", path, { keyword: key });
  else if (!(before === undefined || before === false) || !(after === undefined || after === false)) {
    emit(node, "value_changed", path, { keyword: key });
  }
}
