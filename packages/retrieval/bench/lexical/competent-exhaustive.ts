// The lexical benchmark's baseline: a competent exhaustive BM25 scorer, written the way one would write a fast
// brute-force scorer without any pruning or precomputed per-posting scores:
// - CSR postings in typed arrays: term id → [start, end) into one Int32Array of doc ids and one of term frequencies;
// - the per-document length factor (Lucene's cached `normInverse`) precomputed once, in a Float32Array;
// - one reusable float64 accumulator and one reusable "touched documents" list per scorer (only touched documents
//   are reset after a query; no allocation per query apart from the analyzer's tokens and the result);
// - the BM25 contribution inlined in the posting loop (no function call per posting);
// - a binary min-heap of size k for the top-k.
// Every posting of every query term is scored (term-at-a-time). The scoring is Lucene's BM25Similarity in float32,
// re-implemented here from Lucene's formulas and SmallFloat bit layout (independently of factkit's src/), with the
// same summation order as factkit's index (query terms in first-occurrence order, boost = repeat count), so its
// top-10 must equal factkit's exactly; the benchmark checks that on every query and fails otherwise.
import type { Analyzer } from '../../src/index.js';

export interface CompetentExhaustive {
  add(document: { id: string; text: string }): void;
  /** Builds the CSR arrays and the length factors; call once after the last `add`. */
  finish(): void;
  search(query: string, topK: number): string[];
  readonly postings: number;
}

const fround = Math.fround;

/** Lucene `SmallFloat.intToByte4` then `byte4ToInt`: the length BM25Similarity sees after norm encoding. */
function luceneEncodedLength(length: number): number {
  // NUM_FREE_VALUES = 255 - longToInt4(Integer.MAX_VALUE) = 255 - 231 = 24: lengths below 24 are stored exactly.
  const free = 24;
  if (length < free) return length;
  const rest = length - free;
  const bits = 32 - Math.clz32(rest); // Lucene: 64 - Long.numberOfLeadingZeros(rest)
  if (bits < 4) return free + rest; // longToInt4 keeps values below 8 as they are
  const shift = bits - 4;
  // keep the 4 leading bits (the top one implicit), drop the rest: int4ToLong((m & 7) | (shift+1) << 3)
  const mantissa = Math.floor(rest / 2 ** shift) & 0x07;
  return free + (mantissa | 0x08) * 2 ** shift;
}

class GrowableInt32 {
  array = new Int32Array(1 << 16);
  length = 0;
  push(value: number): void {
    if (this.length === this.array.length) {
      const next = new Int32Array(this.array.length * 2);
      next.set(this.array);
      this.array = next;
    }
    this.array[this.length++] = value;
  }
}

export function createCompetentExhaustive(analyzer: Analyzer, k1 = 0.9, b = 0.4): CompetentExhaustive {
  const termIds = new Map<string, number>();
  const ids: string[] = [];
  const lengths = new GrowableInt32();
  // Build buffers: (term, doc, tf) triples in document order; a counting sort by term turns them into CSR.
  const tripleTerm = new GrowableInt32();
  const tripleDoc = new GrowableInt32();
  const tripleTf = new GrowableInt32();
  let termCounts = new Int32Array(1024);
  const docTerms: number[] = [];

  // Search state (after finish)
  let start = new Int32Array(0); // start[t] .. start[t + 1]
  let docs = new Int32Array(0);
  let tfs = new Int32Array(0);
  let normInverse = new Float32Array(0);
  let docCount = 0;
  let accumulator = new Float64Array(0);
  let touched = new Int32Array(0);
  let heapDocs = new Int32Array(0);
  let heapScores = new Float64Array(0);
  const k1f = fround(k1);

  return {
    get postings() {
      return docs.length;
    },
    add(document) {
      const terms = analyzer.analyze(document.text);
      const doc = ids.length;
      ids.push(document.id);
      lengths.push(terms.length);
      docTerms.length = 0;
      for (const term of terms) {
        let id = termIds.get(term);
        if (id === undefined) {
          id = termIds.size;
          termIds.set(term, id);
          if (id === termCounts.length) {
            const next = new Int32Array(termCounts.length * 2);
            next.set(termCounts);
            termCounts = next;
          }
        }
        if (termCounts[id] === 0) docTerms.push(id);
        termCounts[id] = (termCounts[id] as number) + 1;
      }
      for (const id of docTerms) {
        tripleTerm.push(id);
        tripleDoc.push(doc);
        tripleTf.push(termCounts[id] as number);
        termCounts[id] = 0;
      }
    },
    finish() {
      const terms = termIds.size;
      const total = tripleTerm.length;
      start = new Int32Array(terms + 1);
      for (let i = 0; i < total; i++) {
        const slot = (tripleTerm.array[i] as number) + 1;
        start[slot] = (start[slot] as number) + 1;
      }
      for (let t = 0; t < terms; t++) start[t + 1] = (start[t + 1] as number) + (start[t] as number);
      docs = new Int32Array(total);
      tfs = new Int32Array(total);
      const cursor = start.slice(0, terms);
      for (let i = 0; i < total; i++) {
        const term = tripleTerm.array[i] as number;
        const position = cursor[term] as number;
        cursor[term] = position + 1;
        docs[position] = tripleDoc.array[i] as number;
        tfs[position] = tripleTf.array[i] as number;
      }
      tripleTerm.array = tripleDoc.array = tripleTf.array = new Int32Array(0);
      // Lucene: avgdl = sumTotalTermFreq / docCount (documents with the field), as float; normInverse per norm byte.
      docCount = 0;
      let sum = 0;
      for (let doc = 0; doc < ids.length; doc++) {
        const length = lengths.array[doc] as number;
        sum += length;
        if (length > 0) docCount++;
      }
      const avgdl = fround(sum / docCount);
      const bf = fround(b);
      normInverse = new Float32Array(ids.length);
      for (let doc = 0; doc < ids.length; doc++) {
        const dl = luceneEncodedLength(lengths.array[doc] as number);
        normInverse[doc] = fround(1 / fround(k1f * fround(fround(1 - bf) + fround(fround(bf * dl) / avgdl))));
      }
      accumulator = new Float64Array(ids.length);
      touched = new Int32Array(ids.length);
    },
    search(query, topK) {
      // query terms in first-occurrence order, boost = how often the term occurs in the query
      const boosts = new Map<string, number>();
      for (const term of analyzer.analyze(query)) boosts.set(term, (boosts.get(term) ?? 0) + 1);
      // Hot arrays in locals (closure variables reassigned by finish() would be re-loaded from the context per posting).
      const acc = accumulator;
      const norms = normInverse;
      const postingDocs = docs;
      const postingTfs = tfs;
      const offsets = start;
      const touchedDocs = touched;
      let touchedCount = 0;
      for (const [term, boost] of boosts) {
        const id = termIds.get(term);
        if (id === undefined) continue;
        const from = offsets[id] as number;
        const to = offsets[id + 1] as number;
        const df = to - from;
        const idf = fround(Math.log(1 + (docCount - df + 0.5) / (df + 0.5)));
        const weight = fround(fround(boost) * idf);
        for (let p = from; p < to; p++) {
          const doc = postingDocs[p] as number;
          const before = acc[doc] as number;
          if (before === 0) touchedDocs[touchedCount++] = doc;
          acc[doc] = before + fround(weight - fround(weight / fround(1 + fround((postingTfs[p] as number) * (norms[doc] as number)))));
        }
      }
      // top-k min-heap; the root is the worst kept hit (lowest score, then highest doc number)
      if (heapDocs.length < topK) {
        heapDocs = new Int32Array(topK);
        heapScores = new Float64Array(topK);
      }
      const hd = heapDocs;
      const hs = heapScores;
      let size = 0;
      for (let i = 0; i < touchedCount; i++) {
        const doc = touchedDocs[i] as number;
        const score = acc[doc] as number;
        acc[doc] = 0;
        if (size < topK) {
          // sift up
          let child = size++;
          while (child > 0) {
            const parent = (child - 1) >> 1;
            const ps = hs[parent] as number;
            if (ps < score || (ps === score && (hd[parent] as number) > doc)) break;
            hd[child] = hd[parent] as number;
            hs[child] = ps;
            child = parent;
          }
          hd[child] = doc;
          hs[child] = score;
          continue;
        }
        const rootScore = hs[0] as number;
        if (score < rootScore || (score === rootScore && doc > (hd[0] as number))) continue;
        // replace the root, sift down
        let parent = 0;
        for (;;) {
          let child = 2 * parent + 1;
          if (child >= size) break;
          const right = child + 1;
          if (right < size) {
            const cs = hs[child] as number;
            const rs = hs[right] as number;
            if (rs < cs || (rs === cs && (hd[right] as number) > (hd[child] as number))) child = right;
          }
          const cs = hs[child] as number;
          if (score < cs || (score === cs && doc > (hd[child] as number))) break;
          hd[parent] = hd[child] as number;
          hs[parent] = cs;
          parent = child;
        }
        hd[parent] = doc;
        hs[parent] = score;
      }
      const order = Array.from({ length: size }, (_, i) => i);
      order.sort((x, y) => (hs[y] as number) - (hs[x] as number) || (hd[x] as number) - (hd[y] as number));
      return order.map((i) => ids[hd[i] as number] as string);
    },
  };
}
