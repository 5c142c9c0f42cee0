import { beforeAll, expect, it } from 'vitest';
import { describeWithData } from '../../test-utils/src/data-tests.js';
import { splitSentences, type SentenceProfile } from '../src/text/sentences.js';
import { readSciFactJsonl } from './scifact-data.js';

// SciFact ships its own sentence split of every abstract (corpus_sentences); the leakage study's gold evidence is
// indexed by it. This measures how many of the 5,183 abstracts splitSentences splits identically, with the profile
// that reproduces SciFact's split ('scifact') and with the one for ordinary text ('default'). The corpus text is
// BEIR's: SciFact's sentences joined with one space. The floors are the measured counts: a regression fails.

let texts = new Map<string, string>();
let rows: { doc_id: number; abstract: string[] }[] = [];

function countIdentical(profile: SentenceProfile): number {
  let identical = 0;
  for (const row of rows) {
    const text = texts.get(String(row.doc_id));
    expect(text, `abstract ${row.doc_id} is in corpus.jsonl.gz`).toBeDefined();
    const ours = splitSentences(text ?? '', { profile });
    const theirs = row.abstract.map((sentence) => sentence.trim());
    if (ours.length === theirs.length && ours.every((sentence, index) => sentence === theirs[index])) identical += 1;
  }
  // The measured figure, for the report (`pnpm --filter @factkit/core exec vitest run test/scifact-sentences.test.ts`).
  console.info(`splitSentences profile '${profile}': ${identical}/${rows.length} SciFact abstracts identical (${((100 * identical) / rows.length).toFixed(2)}%)`);
  return identical;
}

describeWithData('scifact', 'splitSentences against SciFact corpus_sentences', (scifact) => {
  beforeAll(() => {
    texts = new Map((readSciFactJsonl('corpus.jsonl.gz', scifact) as { _id: string; text: string }[]).map((row) => [row._id, row.text]));
    rows = readSciFactJsonl('corpus_sentences.jsonl.gz', scifact) as { doc_id: number; abstract: string[] }[];
  });

  it('has all 5,183 abstracts', () => {
    expect(rows).toHaveLength(5183);
  });

  it("profile 'scifact' splits at least 5,080 of the 5,183 abstracts exactly as SciFact does (measured 98.01%)", () => {
    expect(countIdentical('scifact')).toBeGreaterThanOrEqual(5080);
  });

  it("profile 'default' splits at least 4,922 of them identically (measured 94.96%)", () => {
    expect(countIdentical('default')).toBeGreaterThanOrEqual(4922);
  });
});
