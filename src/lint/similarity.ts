/** TF-IDF vectors over tool texts and a search for similar pairs within blocks that never compares every pair. */

// Within a block the search is the "All-Pairs" prefix filter (Bayardo, Ma and Srikant, 2007). Terms
// are put in a global order, most frequent first. A vector is indexed only under the terms after the
// point where its weights, each multiplied by the largest weight that term has in the block, add up
// to the threshold: the part left out cannot reach the threshold on its own, so any pair at or above
// it shares an indexed term. Frequent, low-information terms stay out of the index, which keeps
// posting lists short; candidates are then scored exactly.

/** A sparse unit vector: term ids in global order, with their weights. */
interface Vector {
  terms: Int32Array;
  weights: Float64Array;
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
function vectors(documents: readonly (readonly string[])[], wanted: ReadonlySet<number>): { vectors: (Vector | null)[]; termCount: number } {
  const ids = new Map<string, number>();
  const frequency: number[] = [];
  const lastDoc: number[] = [];
  const docIds = documents.map((words, doc) => {
    const list = new Int32Array(words.length);
    words.forEach((word, index) => {
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
      list[index] = id;
    });
    return list;
  });
  // Global order: most frequent term first (ties by id, so the order is deterministic).
  const order = [...frequency.keys()].sort((x, y) => (frequency[y] as number) - (frequency[x] as number) || x - y);
  const rank = new Int32Array(order.length);
  order.forEach((id, position) => {
    rank[id] = position;
  });
  const total = documents.length;
  const out = docIds.map((list, doc): Vector | null => {
    if (!wanted.has(doc)) return null;
    // Count terms by sorting their ranks: equal ranks end up next to each other.
    const ranks = Int32Array.from(list, (id) => rank[id] as number).sort();
    const terms: number[] = [];
    const weights: number[] = [];
    let norm = 0;
    for (let index = 0; index < ranks.length; ) {
      const term = ranks[index] as number;
      let count = 0;
      while (index < ranks.length && ranks[index] === term) {
        count++;
        index++;
      }
      const weight = count * (Math.log((1 + total) / (1 + (frequency[order[term] as number] as number))) + 1);
      terms.push(term);
      weights.push(weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    return { terms: Int32Array.from(terms), weights: Float64Array.from(weights, (weight) => (norm > 0 ? weight / norm : 0)) };
  });
  return { vectors: out, termCount: order.length };
}

function dot(x: Vector, y: Vector): number {
  let sum = 0;
  let i = 0;
  let j = 0;
  while (i < x.terms.length && j < y.terms.length) {
    const a = x.terms[i] as number;
    const b = y.terms[j] as number;
    if (a === b) sum += (x.weights[i++] as number) * (y.weights[j++] as number);
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
  list: readonly (Vector | null)[],
  threshold: number,
  accept: (a: number, b: number) => boolean,
  budget: { left: number },
  scratch: Scratch,
  found: PairSink,
): void {
  const { maxWeight, seenBy, judged } = scratch;
  for (const doc of block) {
    const vector = list[doc] as Vector;
    for (let index = 0; index < vector.terms.length; index++) {
      const term = vector.terms[index] as number;
      const weight = vector.weights[index] as number;
      if (weight > (maxWeight[term] as number)) maxWeight[term] = weight;
    }
  }
  const postings = new Map<number, number[]>();
  const candidates: number[] = [];
  for (const current of block) {
    const vector = list[current] as Vector;
    // Candidates: earlier documents of the block indexed under any term of this one.
    candidates.length = 0;
    const stamp = ++scratch.stamp;
    for (const term of vector.terms) {
      const posting = postings.get(term);
      if (posting === undefined) continue;
      budget.left -= posting.length;
      if (budget.left < 0) break;
      for (const other of posting) {
        if (seenBy[other] === stamp) continue;
        seenBy[other] = stamp;
        candidates.push(other);
      }
    }
    if (budget.left < 0) break;
    candidates.sort((x, y) => x - y);
    for (const other of candidates) {
      // A document may sit in several blocks; each pair is judged once.
      const [a, b] = other < current ? [other, current] : [current, other];
      const key = a * list.length + b;
      if (judged.has(key)) continue;
      judged.add(key);
      if (!accept(a, b)) continue;
      const cosine = dot(list[a] as Vector, list[b] as Vector);
      if (cosine >= threshold - EPSILON) found({ a, b, cosine });
    }
    // Index this document under the terms past its bound.
    let bound = 0;
    for (let index = 0; index < vector.terms.length; index++) {
      const term = vector.terms[index] as number;
      bound += (vector.weights[index] as number) * (maxWeight[term] as number);
      if (bound < threshold - EPSILON) continue;
      const posting = postings.get(term);
      if (posting === undefined) postings.set(term, [current]);
      else posting.push(current);
    }
  }
  for (const doc of block) for (const term of (list[doc] as Vector).terms) maxWeight[term] = 0;
}

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
  const { vectors: list, termCount } = vectors(documents, wanted);
  const left = { left: budget };
  const scratch: Scratch = { maxWeight: new Float64Array(termCount), seenBy: new Int32Array(list.length), stamp: 0, judged: new Set() };
  for (const block of blocks) {
    if (block.length < 2) continue;
    searchBlock(block, list, threshold, accept, left, scratch, found);
    if (left.left < 0) return true;
  }
  return false;
}
