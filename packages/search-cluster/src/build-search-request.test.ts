import { describe, expect, it } from 'vitest';
import { buildSearchRequest } from './build-search-request.js';
import { resolveFields } from './index-definition.js';

const flat = resolveFields('flat', 'test');

describe('buildSearchRequest', () => {
  it('is one match query on contents for a text query, sorted by score then id', () => {
    expect(buildSearchRequest({ text: 'vitamin d' }, { topK: 7, fields: flat }).body).toEqual({
      size: 7,
      query: { match: { contents: { query: 'vitamin d', operator: 'or', boost: 1 } } },
      sort: [{ _score: { order: 'desc' } }, { id: { order: 'asc' } }],
      track_total_hits: false,
      track_scores: true,
      _source: ['id', 'title', 'text', 'source', 'metadata'],
    });
  });

  it('merges duplicate weighted terms, drops zero weights, and multiplies field weights', () => {
    const { body } = buildSearchRequest(
      {
        text: '',
        weightedTerms: [
          { term: 'cell', weight: 0.5 },
          { term: 'zero', weight: 0 },
          { term: 'cell', weight: 0.25 },
        ],
      },
      { topK: 3, fields: resolveFields({ title: 2, text: 1 }, 'test') },
    );
    expect(body?.['query']).toEqual({ bool: { should: [{ term: { title: { value: 'cell', boost: 1.5 } } }, { term: { text: { value: 'cell', boost: 0.75 } } }] } });
  });

  it('has nothing to send for a blank text or all-zero weights', () => {
    expect(buildSearchRequest({ text: ' \n' }, { topK: 3, fields: flat })).toEqual({ body: undefined, problems: [{ code: 'no-searchable-terms', message: 'query has no searchable terms' }] });
    expect(buildSearchRequest({ text: 'x', weightedTerms: [{ term: 'a', weight: 0 }] }, { topK: 3, fields: flat }).body).toBeUndefined();
  });

  it('rejects malformed weighted terms naming the entry', () => {
    expect(() => buildSearchRequest({ text: 'x', weightedTerms: [{ term: 'a', weight: -1 }] }, { topK: 3, fields: flat })).toThrow(/weightedTerms\[0\]/);
  });
});
