import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@factkit/core';
import { LUCENE_ENGLISH_STOP_WORDS as RETRIEVAL_STOP_WORDS, createEnglishAnalyzer } from '@factkit/retrieval';
import { LUCENE_ENGLISH_STOP_WORDS } from '@factkit/core';
import { FACTKIT_BM25_B, FACTKIT_BM25_K1, buildIndexDefinition } from './index-definition.js';

describe('buildIndexDefinition', () => {
  it('copies @factkit/retrieval: the same stop words, and k1/b equal to its defaults', () => {
    expect(LUCENE_ENGLISH_STOP_WORDS).toEqual(RETRIEVAL_STOP_WORDS);
    expect([FACTKIT_BM25_K1, FACTKIT_BM25_B]).toEqual([0.9, 0.4]);
    // The analyzer chain mirrored in the settings is the one retrieval's default English analyzer runs.
    expect(createEnglishAnalyzer().analyze("The Cat's running to the Dogs")).toEqual(['cat', 'run', 'dog']);
  });

  it('declares the BM25 similarity and the Lucene English analysis chain', () => {
    const { settings, mappings } = buildIndexDefinition({ k1: 1.2, b: 0.75 });
    expect(settings).toEqual({
      index: {
        number_of_shards: 1,
        number_of_replicas: 0,
        similarity: { factkit_bm25: { type: 'BM25', k1: 1.2, b: 0.75, discount_overlaps: true } },
        analysis: {
          filter: {
            factkit_english_possessive: { type: 'stemmer', language: 'possessive_english' },
            factkit_english_stop: { type: 'stop', stopwords: [...RETRIEVAL_STOP_WORDS], ignore_case: false },
          },
          analyzer: { factkit_english: { type: 'custom', tokenizer: 'standard', filter: ['factkit_english_possessive', 'lowercase', 'factkit_english_stop', 'porter_stem'] } },
        },
      },
    });
    expect(mappings).toMatchObject({ dynamic: 'strict', properties: { contents: { type: 'text', analyzer: 'factkit_english', similarity: 'factkit_bm25' }, text: { index: false }, metadata: { enabled: false } } });
  });

  it('indexes title and text separately when fields are weighted', () => {
    const { mappings } = buildIndexDefinition({ fields: { title: 2, text: 1 } });
    expect(mappings).toMatchObject({ properties: { title: { analyzer: 'factkit_english' }, text: { analyzer: 'factkit_english' } } });
    expect((mappings['properties'] as Record<string, unknown>)['contents']).toBeUndefined();
  });

  it.each([
    [{ k1: -1 }, 'k1'],
    [{ b: 1.5 }, 'b'],
    [{ numberOfShards: 0 }, 'numberOfShards'],
    [{ fields: { title: 0 } }, 'fields'],
    [{ fields: { text: Number.NaN } }, 'fields.text'],
  ])('rejects %j naming the option', (options, argument) => {
    expect(() => buildIndexDefinition(options as never)).toThrow(expect.objectContaining({ argument }));
    try {
      buildIndexDefinition(options as never);
    } catch (error) {
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
    }
  });
});
