import { describe, expect, it } from 'vitest';
import { createClassTfidfLabeller } from './class-tfidf-labeller.js';

describe('createClassTfidfLabeller (BERTopic c-TF-IDF)', () => {
  it('matches a hand-computed c-TF-IDF', async () => {
    // Class 0: "apple apple banana" (3 terms); class 1: "banana cherry" (2 terms). Unigrams, no stop words.
    // A = trunc(5 / 2) = 2; f(apple) = 2, f(banana) = 2, f(cherry) = 1.
    // class 0: apple = 2/3 · ln(1 + 2/2) = 0.462, banana = 1/3 · ln 2 = 0.231
    // class 1: cherry = 1/2 · ln(1 + 2/1) = 0.549, banana = 1/2 · ln 2 = 0.347
    const labeller = createClassTfidfLabeller({ topN: 2, ngramRange: [1, 1], stopWords: new Set() });
    const labels = await labeller.label({
      clusters: [
        { leafId: 7, texts: ['Apple apple', 'banana'] },
        { leafId: 9, texts: ['banana cherry'] },
      ],
    });
    expect(labels.map((label) => [label.leafId, label.keywords])).toEqual([
      [7, ['apple', 'banana']],
      [9, ['cherry', 'banana']],
    ]);
  });

  it('drops stop words, forms bigrams, labels only the targets, and reports an empty cluster', async () => {
    const labeller = createClassTfidfLabeller({ topN: 3 });
    const labels = await labeller.label({
      clusters: [
        { leafId: 1, texts: ['The Scottish Parliament is in Edinburgh.', 'A member of the Scottish Parliament.'] },
        { leafId: 2, texts: ['Arctic sea ice is melting.'] },
        { leafId: 3, texts: ['the of and'] },
      ],
      targets: [0, 2],
    });
    expect(labels.map((label) => label.leafId)).toEqual([1, 3]);
    expect(labels[0]?.keywords).toContain('scottish parliament');
    expect(labels[0]?.keywords).not.toContain('the');
    expect(labels[1]?.problems.map((problem) => problem.code)).toEqual(['no-keywords']);
  });
});
