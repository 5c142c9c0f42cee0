// Test-only helpers (not exported from index.ts).
import type { Embedder, Evidence, NliModel, Retriever } from '@factkit/core';
import { createMockNliModel } from '@factkit/core/testing';
import type { GeneratedPair } from '../src/detect/generator.js';
import { generatedPair } from '../src/detect/generator.js';

/** Mock NLI on years: entailment if the premise contains the hypothesis's 4-digit year, contradiction if it contains another year, else neutral. */
export function createYearNliModel(): NliModel {
  return createMockNliModel({
    label: ({ premise, hypothesis }) => {
      const year = /\d{4}/.exec(hypothesis)?.[0];
      if (!year) return 'neutral';
      if (premise.includes(year)) return 'entailment';
      return /\d{4}/.test(premise) ? 'contradiction' : 'neutral';
    },
  });
}

/** Bag-of-words embedder over a fixed vocabulary built from the texts seen: cosine = word-overlap cosine. */
export function createBagOfWordsEmbedder(): Embedder {
  const vocabulary = new Map<string, number>();
  const dimensions = 4096;
  return {
    id: 'test-bag-of-words',
    dimensions,
    async embed({ texts }) {
      return {
        embeddings: texts.map((text) => {
          const vector = new Float32Array(dimensions);
          for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
            if (!vocabulary.has(word)) vocabulary.set(word, vocabulary.size % dimensions);
            vector[vocabulary.get(word)!]! += 1;
          }
          return vector;
        }),
      };
    },
  };
}

/** A retriever answering from a query → evidence table, throwing for listed queries. */
export function createTableRetriever(table: Readonly<Record<string, readonly string[]>>, failing: readonly string[] = []): Retriever & { calls: string[] } {
  const calls: string[] = [];
  return {
    id: 'table',
    calls,
    async retrieve({ query, topK = 10 }) {
      calls.push(query.text);
      if (failing.includes(query.text)) throw new Error(`search backend down for "${query.text}"`);
      const texts = table[query.text] ?? [];
      const evidence: Evidence[] = texts
        .slice(0, topK)
        .map((text, index) => ({ documentId: `doc-${index}`, text, score: 10 - index, rank: index + 1, origin: { documentId: `doc-${index}`, source: { name: 'example.org', url: `https://example.org/${index}` } } }));
      return { evidence };
    },
  };
}

/** A generator's pairs from claim (and query) texts, keyed `<item id>:c<k>` as every generator keys them. */
export function pairsOf(itemId: string | undefined, texts: readonly { readonly claim: string; readonly query?: string; readonly sentenceIndex?: number }[]): GeneratedPair[] {
  return texts.map((text, k) => generatedPair(itemId ?? '0', k, text.claim, text.query, text.sentenceIndex === undefined ? {} : { sentenceIndex: text.sentenceIndex }));
}
