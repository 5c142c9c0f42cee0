import type { SearchClusterFields, SearchClusterRetrieverOptions } from './search-cluster-options.js';
import { assertNonNegativeInteger, assertNonNegativeNumber, assertPositiveInteger, InvalidArgumentError, LUCENE_ENGLISH_STOP_WORDS } from '@factkit/core';

/**
 * BM25 k1 of `@factkit/retrieval` (Anserini's default, `createBm25Index`'s `@default 0.9`). Copied, not imported:
 * this package is layer 1 and depends on `@factkit/core` only.
 */
export const FACTKIT_BM25_K1 = 0.9;
/** BM25 b of `@factkit/retrieval` (Anserini's default, `createBm25Index`'s `@default 0.4`). Copied, not imported. */
export const FACTKIT_BM25_B = 0.4;

/** Names used inside the index settings (stable: a saved index is checked against them). */
export const SEARCH_CLUSTER_NAMES = {
  similarity: 'factkit_bm25',
  analyzer: 'factkit_english',
  possessiveFilter: 'factkit_english_possessive',
  stopFilter: 'factkit_english_stop',
} as const;

/** The options `buildIndexDefinition` reads (documented on `SearchClusterRetrieverOptions`). */
export type IndexDefinitionOptions = Pick<SearchClusterRetrieverOptions, 'k1' | 'b' | 'stopWords' | 'fields' | 'numberOfShards' | 'numberOfReplicas'>;

/** Settings and mappings of a factkit index, in the shape both OpenSearch and Elasticsearch accept. */
export interface IndexDefinition {
  readonly settings: Record<string, unknown>;
  readonly mappings: Record<string, unknown>;
}

export interface ResolvedFields {
  readonly flat: boolean;
  /** Searched fields and their boosts, e.g. `[['contents', 1]]` or `[['title', 2], ['text', 1]]`. */
  readonly searched: ReadonlyArray<readonly [string, number]>;
}

/** Checks and resolves the `fields` option. @throws InvalidArgumentError */
export function resolveFields(fields: SearchClusterFields, where: string): ResolvedFields {
  if (fields === 'flat') return { flat: true, searched: [['contents', 1]] };
  if (typeof fields !== 'object' || fields === null) throw new InvalidArgumentError({ where, argument: 'fields', message: `must be 'flat' or { title?, text? } weights (got ${String(fields)})` });
  const searched: Array<readonly [string, number]> = [];
  for (const name of ['title', 'text'] as const) {
    const weight = fields[name];
    if (weight === undefined) continue;
    assertNonNegativeNumber(`fields.${name}`, weight, where);
    if (weight > 0) searched.push([name, weight]);
  }
  if (searched.length === 0) throw new InvalidArgumentError({ where, argument: 'fields', message: 'must give title or text a weight > 0' });
  return { flat: false, searched };
}

function checkUnitInterval(value: number, argument: string, where: string, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new InvalidArgumentError({ where, argument, message: `must be a number in [${min}, ${max}] (got ${String(value)})` });
  }
}

/**
 * The index settings and mappings that make OpenSearch / Elasticsearch score like `@factkit/retrieval`'s BM25:
 * Lucene's BM25Similarity at our k1/b and a custom analyzer mirroring `createEnglishAnalyzer()` (standard tokenizer →
 * English possessive → lowercase → English stop words → Porter stemmer). `_source` keeps id, title, text, source and metadata;
 * source and metadata are stored, not indexed.
 * @throws InvalidArgumentError for k1 < 0, b outside [0, 1], bad fields, shard counts or stop words.
 * @example buildIndexDefinition({ k1: 1.2, b: 0.75 }).settings
 */
export function buildIndexDefinition(options: IndexDefinitionOptions = {}): IndexDefinition {
  const where = 'buildIndexDefinition';
  const { k1 = FACTKIT_BM25_K1, b = FACTKIT_BM25_B, stopWords = LUCENE_ENGLISH_STOP_WORDS, fields = 'flat', numberOfShards = 1, numberOfReplicas = 0 } = options;
  checkUnitInterval(k1, 'k1', where, 0, Number.MAX_VALUE);
  checkUnitInterval(b, 'b', where, 0, 1);
  assertPositiveInteger('numberOfShards', numberOfShards, where);
  assertNonNegativeInteger('numberOfReplicas', numberOfReplicas, where);
  if (!Array.isArray(stopWords) || stopWords.some((word) => typeof word !== 'string')) throw new InvalidArgumentError({ where, argument: 'stopWords', message: 'must be an array of strings' });
  const resolved = resolveFields(fields, where);
  const analyzedText = { type: 'text', analyzer: SEARCH_CLUSTER_NAMES.analyzer, similarity: SEARCH_CLUSTER_NAMES.similarity };
  const storedOnly = { type: 'text', index: false };
  const properties: Record<string, unknown> = {
    // A keyword copy of the id: sorting ties by id needs doc values, which `_id` does not offer by default.
    id: { type: 'keyword' },
    title: resolved.flat ? storedOnly : analyzedText,
    text: resolved.flat ? storedOnly : analyzedText,
    source: { type: 'object', enabled: false },
    metadata: { type: 'object', enabled: false },
  };
  if (resolved.flat) properties['contents'] = analyzedText;
  return {
    settings: {
      index: {
        number_of_shards: numberOfShards,
        number_of_replicas: numberOfReplicas,
        similarity: { [SEARCH_CLUSTER_NAMES.similarity]: { type: 'BM25', k1, b, discount_overlaps: true } },
        analysis: {
          filter: {
            [SEARCH_CLUSTER_NAMES.possessiveFilter]: { type: 'stemmer', language: 'possessive_english' },
            [SEARCH_CLUSTER_NAMES.stopFilter]: { type: 'stop', stopwords: [...stopWords], ignore_case: false },
          },
          analyzer: {
            [SEARCH_CLUSTER_NAMES.analyzer]: {
              type: 'custom',
              tokenizer: 'standard',
              filter: [SEARCH_CLUSTER_NAMES.possessiveFilter, 'lowercase', SEARCH_CLUSTER_NAMES.stopFilter, 'porter_stem'],
            },
          },
        },
      },
    },
    mappings: { dynamic: 'strict', properties },
  };
}
