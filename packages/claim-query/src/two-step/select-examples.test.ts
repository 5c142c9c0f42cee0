import { describe, expect, it } from 'vitest';
import { createBagOfWordsEmbedder } from '../../test/support.js';
import { formatClaimExamples, formatQueryExamples, sampleQueryExamples, selectClaimExamples } from './select-examples.js';

describe('selectClaimExamples', () => {
  const pool = [
    { question: 'Who wrote Hamlet?', answer: 'Shakespeare.', claims: ['Shakespeare wrote Hamlet.'] }, // 0: similar topic, length 12
    { question: 'Who wrote Macbeth?', answer: 'William Shakespeare wrote Macbeth around 1606.', claims: [] }, // 1: similar topic
    { question: 'Where is Paris?', answer: 'x'.repeat(40), claims: [] }, // 2: length 40
    { question: 'Where is Rome?', answer: 'y'.repeat(41), claims: [] }, // 3: length 41
    { question: 'What is H2O?', answer: 'z'.repeat(39), claims: [] }, // 4: length 39
  ];
  it('takes from the union of top-k semantic and top-k length, then samples with the seed', async () => {
    const target = { question: 'Who wrote Hamlet and Macbeth?', answer: 'Shakespeare wrote them.'.padEnd(40, '.') };
    const [chosen] = await selectClaimExamples([target], { pool, embedder: createBagOfWordsEmbedder(), semanticCount: 2, lengthCount: 2, sampleCount: 3, seed: 1 });
    // semantic top-2 = {0, 1}; length top-2 (|len - 40|) = {2 (0), 3 or 4 (1): earlier index wins -> 3}
    expect(chosen).toHaveLength(3);
    for (const index of chosen ?? []) expect([0, 1, 2, 3]).toContain(index);
    const [again] = await selectClaimExamples([target], { pool, embedder: createBagOfWordsEmbedder(), semanticCount: 2, lengthCount: 2, sampleCount: 3, seed: 1 });
    expect(again).toEqual(chosen);
    const [all] = await selectClaimExamples([target], { pool, embedder: createBagOfWordsEmbedder(), semanticCount: 2, lengthCount: 2, sampleCount: 9 });
    expect([...(all ?? [])].sort()).toEqual([0, 1, 2, 3]);
  });
  it('rejects an empty pool', async () => {
    await expect(selectClaimExamples([{ question: 'q', answer: 'a' }], { pool: [], embedder: createBagOfWordsEmbedder() })).rejects.toThrow(/pool/);
  });
  it('formats examples in the prompt layout', () => {
    expect(formatClaimExamples([pool[0]!])).toBe('[Question]\nWho wrote Hamlet?\n[Answer]\nShakespeare.\n[Claims]\nShakespeare wrote Hamlet.');
    expect(formatClaimExamples([{ question: '问', answer: '答', claims: [] }], 'zh')).toBe('[问题]\n问\n[回答]\n答\n[陈述]\n无陈述');
    expect(formatQueryExamples([{ claim: 'c', query: 'q' }])).toBe('[Claim]\nc\n[Query]\nq');
    expect(
      sampleQueryExamples(
        [
          { claim: 'a', query: 'a' },
          { claim: 'b', query: 'b' },
        ],
        { count: 5 },
      ),
    ).toHaveLength(2);
  });
});
