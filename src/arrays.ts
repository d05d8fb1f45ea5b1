/**
 * Array helpers for lists whose length a server controls. `push(...list)` and `Math.max(...list)`
 * pass every element as a call argument and throw RangeError past about 100,000 of them (a schema
 * with 150,000 changed properties did), so lists of unbounded length go through these loops.
 */

/** Append every item to `target`, in order. */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** The largest number in a list, or `empty` when there is none. */
export function maxOf(values: Iterable<number>, empty = Number.NEGATIVE_INFINITY): number {
  let max = empty;
  let any = false;
  for (const value of values) {
    if (!any || value > max) max = value;
    any = true;
  }
  return max;
}
