/** "Did you mean": the known word closest to a mistyped command or option. Pure. */

/** Edit distance with transpositions (optimal string alignment): `chek` is one from `check`, `lokc` one from `lock`. */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Math.abs(a.length - b.length);
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The candidate closest to `word`, when it is close enough to be the word meant: at most one edit
 * for short words, two from six letters, three from twelve; a word that starts exactly one
 * candidate means that one. Ties go to the first candidate. Null when nothing is close.
 */
export function closest(word: string, candidates: readonly string[]): string | null {
  const bare = word.toLowerCase();
  if (bare.length > 64) return null;
  // A word that starts exactly one candidate (`--accept-t`) means that one.
  const prefixed = bare.replace(/^-+/, "").length >= 3 ? candidates.filter((candidate) => candidate !== word && candidate.startsWith(word)) : [];
  if (prefixed.length === 1) return prefixed[0] as string;
  const allowed = bare.length >= 12 ? 3 : bare.length >= 6 ? 2 : 1;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === word) return null;
    const distance = editDistance(bare, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== null && bestDistance <= allowed ? best : null;
}

/** ` (did you mean --check?)`, or "" when nothing is close. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const match = closest(word, candidates);
  return match === null ? "" : ` (did you mean ${match}?)`;
}
