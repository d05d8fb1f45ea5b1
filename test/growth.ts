// Bounds on work without a wall clock: a loaded machine makes every run slower, never one size
// alone, so comparing two sizes of the same work in one run tells linear from quadratic (or from
// exponential) whatever the machine's speed. Absolute limits in milliseconds belong in bench/.
import { expect } from "vitest";

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

/** The fastest of `times` runs, in ms, and the last run's value: noise only ever adds time. */
function fastest<T>(run: () => T, times: number): { value: T; ms: number } {
  let best = timed(run);
  for (let index = 1; index < times; index++) {
    const next = timed(run);
    best = { value: next.value, ms: Math.min(best.ms, next.ms) };
  }
  return best;
}

/**
 * The same work on an input `factor` times larger takes about `factor` times as long when it is
 * linear and about `factor` squared when it is quadratic; `limit` (4 x factor by default) tells
 * them apart with room for noise. Times under 2 ms are floored there, where timer noise dominates.
 * Each size runs three times and the fastest counts. A failed comparison is measured afresh, both
 * sizes, up to three times before failing: another process can slow either size on a loaded
 * machine, while quadratic work fails every time. Returns the large run's value, so a test can
 * check it without running it again.
 */
export function expectLinear<T>(label: string, run: (size: number) => T, small: number, factor = 10, limit = factor * 4): T {
  let base = 0;
  let large: { value: T; ms: number } | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    base = Math.max(2, fastest(() => run(small), 3).ms);
    large = fastest(() => run(small * factor), 3);
    if (large.ms < limit * base) break;
  }
  const measured = large as { value: T; ms: number };
  expect(measured.ms, `${label}: ${base.toFixed(1)} ms at ${small}, ${measured.ms.toFixed(1)} ms at ${factor} times that`).toBeLessThan(limit * base);
  return measured.value;
}
