/** Deep equality of parsed JSON values, ignoring object key order; cheaper than comparing canonical text. */

/**
 * True when two JSON values are equal: same scalars, arrays equal item by item, objects with the
 * same own keys and equal values. Depth is bounded by the caller (definitions are at most 64 deep).
 * The same value twice (a lock entry that kept the served object) needs no walk.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return a === b || equalKeyCount(a, b) >= 0;
}

/**
 * The number of own keys, summed over every object, of two equal JSON values, or -1 when they
 * differ. Equal values have the same keys at every level, so one walk both compares them and
 * counts what the other's text must hold (see lock/deferred.ts).
 */
export function equalKeyCount(a: unknown, b: unknown): number {
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b ? 0 : -1;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return -1;
    let total = 0;
    for (let i = 0; i < a.length; i++) {
      const inner = memberKeyCount(a[i], b[i]);
      if (inner < 0) return -1;
      total += inner;
    }
    return total;
  }
  if (Array.isArray(b)) return -1;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  let total = 0;
  // for-in with own-key tests avoids a key array per object: this runs over every locked tool.
  for (const key in left) {
    if (!Object.hasOwn(left, key)) continue;
    if (!Object.hasOwn(right, key)) return -1;
    keys++;
    const inner = memberKeyCount(left[key], right[key]);
    if (inner < 0) return -1;
    total += inner;
  }
  let rightKeys = 0;
  for (const key in right) if (Object.hasOwn(right, key)) rightKeys++;
  return rightKeys === keys ? total + keys : -1;
}

/** equalKeyCount of two members, settling scalars (most schema values are strings) without a call. */
function memberKeyCount(x: unknown, y: unknown): number {
  if (typeof x !== "object" || x === null) return x === y ? 0 : -1;
  return equalKeyCount(x, y);
}
