import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { splitSentences } from '../src/text/sentences.js';

// SciFact ships its own sentence split of every abstract (corpus_sentences); the leakage study's gold evidence is
// indexed by it. This measures how many of the 5,183 abstracts splitSentences splits identically.
const directory = new URL('../../../datasets/scifact/', import.meta.url);
const readJsonl = (name: string): unknown[] =>
  gunzipSync(readFileSync(new URL(name, directory)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);

describe('splitSentences against SciFact corpus_sentences', () => {
  it('splits at least 94.5% of the 5,183 abstracts exactly as SciFact does (measured 94.69%)', () => {
    const texts = new Map((readJsonl('corpus.jsonl.gz') as { _id: string; text: string }[]).map((row) => [row._id, row.text]));
    const rows = readJsonl('corpus_sentences.jsonl.gz') as { doc_id: number; abstract: string[] }[];
    let identical = 0;
    for (const row of rows) {
      const text = texts.get(String(row.doc_id));
      expect(text, `abstract ${row.doc_id} is in corpus.jsonl.gz`).toBeDefined();
      const ours = splitSentences(text ?? '');
      const theirs = row.abstract.map((sentence) => sentence.trim());
      if (ours.length === theirs.length && ours.every((sentence, index) => sentence === theirs[index])) identical += 1;
    }
    expect(rows).toHaveLength(5183);
    expect(identical / rows.length).toBeGreaterThanOrEqual(0.945);
  });
});
