/** TF-IDF vectors over tool texts and a search for similar pairs within blocks that never compares every pair. */

// Within a block the search is the "All-Pairs" prefix filter (Bayardo, Ma and Srikant, 2007). Terms
// are put in a global order, most frequent first. A vector is indexed only under the terms after the
// point where its weights, each multiplied by the largest weight that term has in the block, add up
// to the threshold: the part left out cannot reach the threshold on its own, so any pair at or above
// it shares an indexed term. Frequent, low-information terms stay out of the index, which keeps
// posting lists short; candidates are then scored exactly.

/**
 * Sparse unit vectors of all documents, packed in two flat arrays: document `d` holds the entries
 * from `start[d]` to `start[d + 1]`, term ids in global order with their weights. Documents without
 * a vector hold no entries. One allocation for all documents keeps the heap (and the collector) out
 * of a loop that runs once per tool.
 */
interface Vectors {
  start: Int32Array;
  terms: Int32Array;
  weights: Float64Array;
  termCount: number;
}

/** A pair of documents (by index, `a < b`) and their cosine similarity. */
export interface SimilarPair {
  a: number;
  b: number;
  cosine: number;
}

/** Receives each similar pair as it is found, so a caller can keep only what it reports. */
export type PairSink = (pair: SimilarPair) => void;

/**
 * TF-IDF unit vectors for the documents in `wanted` (raw term counts, smoothed idf
 * `ln((1+N)/(1+df))` + 1 with document frequencies over all documents). Vectors list their terms in
 * the global order, most frequent first; other documents get no vector.
 */
function vectors(documents: readonly (readonly string[])[], wanted: ReadonlySet<number>): Vectors {
  // Plain loops and flat typed arrays throughout: this runs once per lint over every tool's text,
  // mostly before the code is optimized, and per-document arrays or closures cost more than the arithmetic.
  const total = documents.length;
  let words = 0;
  for (let doc = 0; doc < total; doc++) words += (documents[doc] as readonly string[]).length;
  const ids = new Map<string, number>();
  const frequency: number[] = [];
  const lastDoc: number[] = [];
  // Each word's term id, document after document.
  const wordIds = new Int32Array(words);
  let at = 0;
  for (let doc = 0; doc < total; doc++) {
    const list = documents[doc] as readonly string[];
    for (let index = 0; index < list.length; index++) {
      const word = list[index] as string;
      let id = ids.get(word);
      if (id === undefined) {
        id = ids.size;
        ids.set(word, id);
        frequency.push(0);
        lastDoc.push(-1);
      }
      if (lastDoc[id] !== doc) {
        lastDoc[id] = doc;
        frequency[id] = (frequency[id] as number) + 1;
      }
      wordIds[at++] = id;
    }
  }
  // Global order: most frequent term first (ties by id, so the order is deterministic). Each term is
  // one exact sort key, (N - frequency) * terms + id, so a native numeric sort gives that order.
  const termCount = frequency.length;
  const keys = new Float64Array(termCount);
  for (let id = 0; id < termCount; id++) keys[id] = (total - (frequency[id] as number)) * termCount + id;
  keys.sort();
  const rank = new Int32Array(termCount);
  // Smoothed idf of the term at each rank, computed once rather than per document.
  const idf = new Float64Array(termCount);
  for (let position = 0; position < termCount; position++) {
    const id = (keys[position] as number) % termCount;
    rank[id] = position;
    idf[position] = Math.log((1 + total) / (1 + (frequency[id] as number))) + 1;
  }
  // Count terms by sorting each document's ranks: equal ranks end up next to each other.
  const ranks = new Int32Array(words);
  for (let index = 0; index < words; index++) ranks[index] = rank[wordIds[index] as number] as number;
  const start = new Int32Array(total + 1);
  const terms = new Int32Array(words);
  const weights = new Float64Array(words);
  let size = 0;
  let from = 0;
  for (let doc = 0; doc < total; doc++) {
    const to = from + (documents[doc] as readonly string[]).length;
    start[doc] = size;
    if (wanted.has(doc) && to > from) {
      if (to - from > 1) ranks.subarray(from, to).sort();
      const first = size;
      let norm = 0;
      for (let index = from; index < to; ) {
        const term = ranks[index] as number;
        let count = 0;
        while (index < to && ranks[index] === term) {
          count++;
          index++;
        }
        const weight = count * (idf[term] as number);
        terms[size] = term;
        weights[size] = weight;
        size++;
        norm += weight * weight;
      }
      norm = Math.sqrt(norm);
      for (let index = first; index < size; index++) weights[index] = norm > 0 ? (weights[index] as number) / norm : 0;
    }
    from = to;
  }
  start[total] = size;
  return { start, terms, weights, termCount };
}

/** Cosine of two unit vectors: a merge over their terms, both in global order. */
function dot(vectors: Vectors, x: number, y: number): number {
  const { start, terms, weights } = vectors;
  let sum = 0;
  let i = start[x] as number;
  let j = start[y] as number;
  const endI = start[x + 1] as number;
  const endJ = start[y + 1] as number;
  while (i < endI && j < endJ) {
    const a = terms[i] as number;
    const b = terms[j] as number;
    if (a === b) sum += (weights[i++] as number) * (weights[j++] as number);
    else if (a < b) i++;
    else j++;
  }
  return sum;
}

const EPSILON = 1e-12;

/** Scratch arrays shared by the blocks of one search, sized once for all documents and terms. */
interface Scratch {
  /** Largest weight of each term within the current block (reset after the block). */
  maxWeight: Float64Array;
  /** For each document, the stamp of the last candidate list it joined (0 = never). */
  seenBy: Int32Array;
  /** Incremented for every document whose candidates are gathered. */
  stamp: number;
  /** Pairs already judged (`a * N + b`), for documents that sit in more than one block. */
  judged: Set<number>;
}

/** All-Pairs over one block of document indexes; spends from `budget` one unit per candidate visited. */
function searchBlock(
  block: readonly number[],
  list: Vectors,
  threshold: number,
  accept: (a: number, b: number) => boolean,
  budget: { left: number },
  scratch: Scratch,
  found: PairSink,
): void {
  const { maxWeight, seenBy, judged } = scratch;
  const { start, terms, weights } = list;
  for (let member = 0; member < block.length; member++) {
    const doc = block[member] as number;
    const end = start[doc + 1] as number;
    for (let index = start[doc] as number; index < end; index++) {
      const term = terms[index] as number;
      const weight = weights[index] as number;
      if (weight > (maxWeight[term] as number)) maxWeight[term] = weight;
    }
  }
  const postings = new Map<number, number[]>();
  const candidates: number[] = [];
  const documents = start.length - 1;
  for (let member = 0; member < block.length; member++) {
    const current = block[member] as number;
    const first = start[current] as number;
    const end = start[current + 1] as number;
    // Candidates: earlier documents of the block indexed under any term of this one.
    candidates.length = 0;
    const stamp = ++scratch.stamp;
    for (let index = first; index < end; index++) {
      const posting = postings.get(terms[index] as number);
      if (posting === undefined) continue;
      budget.left -= posting.length;
      if (budget.left < 0) break;
      for (let at = 0; at < posting.length; at++) {
        const other = posting[at] as number;
        if (seenBy[other] === stamp) continue;
        seenBy[other] = stamp;
        candidates.push(other);
      }
    }
    if (budget.left < 0) break;
    if (candidates.length > 1) candidates.sort(ascending);
    for (let at = 0; at < candidates.length; at++) {
      const other = candidates[at] as number;
      // A document may sit in several blocks; each pair is judged once.
      const a = Math.min(other, current);
      const b = Math.max(other, current);
      const key = a * documents + b;
      if (judged.has(key)) continue;
      judged.add(key);
      if (!accept(a, b)) continue;
      const cosine = dot(list, a, b);
      if (cosine >= threshold - EPSILON) found({ a, b, cosine });
    }
    // Index this document under the terms past its bound.
    let bound = 0;
    for (let index = first; index < end; index++) {
      const term = terms[index] as number;
      bound += (weights[index] as number) * (maxWeight[term] as number);
      if (bound < threshold - EPSILON) continue;
      const posting = postings.get(term);
      if (posting === undefined) postings.set(term, [current]);
      else posting.push(current);
    }
  }
  for (let member = 0; member < block.length; member++) {
    const doc = block[member] as number;
    const end = start[doc + 1] as number;
    for (let index = start[doc] as number; index < end; index++) maxWeight[terms[index] as number] = 0;
  }
}

const ascending = (x: number, y: number): number => x - y;

/**
 * Every pair of documents in the same block whose TF-IDF cosine (idf over all documents) is at
 * least `threshold` and that `accept` keeps. `accept` runs before the cosine is computed. Blocks
 * come from the caller (tools acting on the same thing), so unrelated documents are never compared.
 * Pairs go to `found` as they are found. The search spends at most `budget` candidate visits;
 * it returns true when it ran out before the end.
 */
export function similarPairs(
  documents: readonly (readonly string[])[],
  blocks: readonly (readonly number[])[],
  threshold: number,
  accept: (a: number, b: number) => boolean,
  budget: number,
  found: PairSink,
): boolean {
  const wanted = new Set<number>();
  for (const block of blocks) if (block.length > 1) for (const doc of block) wanted.add(doc);
  const list = vectors(documents, wanted);
  const left = { left: budget };
  const scratch: Scratch = { maxWeight: new Float64Array(list.termCount), seenBy: new Int32Array(documents.length), stamp: 0, judged: new Set() };
  for (const block of blocks) {
    if (block.length < 2) continue;
    searchBlock(block, list, threshold, accept, left, scratch, found);
    if (left.left < 0) return true;
  }
  return false;
}
