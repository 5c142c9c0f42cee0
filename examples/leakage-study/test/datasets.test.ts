import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CorruptDataError } from '@factkit/core';
import { describe, expect, it } from 'vitest';
import { findDataRoot } from '@factkit/test-utils/data';
import { describeWithData } from '@factkit/test-utils';
// The data root (read in the suites below, which are skipped without it).
const DATA_ROOT = findDataRoot() ?? '<no data root>';
import { loadFeverLite, loadSciFact } from '../src/datasets.js';

describeWithData('scifact', 'loadSciFact', () => {
  it("by default retrieves sentences: 45,952 abstract sentences, gold = rationale sentences (the paper's unit)", async () => {
    const dataset = await loadSciFact({ directory: join(DATA_ROOT, 'scifact') });
    expect(dataset.unit).toBe('sentence');
    expect(dataset.corpus).toHaveLength(45952); // sum of corpus_sentences lengths, counted with Python
    expect(dataset.claims).toHaveLength(655);
    const claim = dataset.claims.find((entry) => entry.id === '2');
    expect(claim?.relevant).toEqual({ '13734012#4': 1 });
    const sentence = dataset.corpus.find((document) => document.id === '13734012#4');
    expect(sentence?.text).toBe(claim?.evidence[0]);
    // Every gold sentence id is a document of the store.
    const ids = new Set(dataset.corpus.map((document) => document.id));
    for (const entry of dataset.claims) for (const id of Object.keys(entry.relevant)) expect(ids.has(id)).toBe(true);
  });

  it('keeps the claims with gold evidence (505 train + 150 dev, counted independently with Python) over the full corpus', async () => {
    const dataset = await loadSciFact({ directory: join(DATA_ROOT, 'scifact'), unit: 'abstract' });
    expect(dataset.corpus).toHaveLength(5183);
    expect(dataset.claims).toHaveLength(655);
    const train = await loadSciFact({ directory: join(DATA_ROOT, 'scifact'), split: 'train', unit: 'abstract' });
    expect(train.claims).toHaveLength(505);
    const claim = train.claims.find((entry) => entry.id === '2');
    expect(claim?.text).toBe('1 in 5 million in UK have abnormal PrP positivity.');
    // claims_train.jsonl: {"13734012": [{"sentences": [4], "label": "CONTRADICT"}]}; sentence 4 of that abstract:
    expect(claim?.evidence).toEqual(['RESULTS Of the 32,441 appendix samples 16 were positive for abnormal PrP, indicating an overall prevalence of 493 per million population (95% confidence interval 282 to 801 per million).']);
    expect(claim?.relevant).toEqual({ '13734012': 1 });
    expect(claim?.label).toBe('refuted'); // CONTRADICT
    // Counted with Python: train evidence claims are 332 SUPPORT and 173 CONTRADICT, none mixed.
    expect(train.claims.filter((entry) => entry.label === 'supported')).toHaveLength(332);
    expect(train.claims.filter((entry) => entry.label === 'refuted')).toHaveLength(173);
    expect(train.claims.some((entry) => entry.id === '0')).toBe(false); // claim 0 has no evidence
  });
});

describe('loadSciFact on a made-up folder', () => {
  it('reports a corrupt line as CorruptDataError naming the file and line', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scifact-'));
    await mkdir(join(directory, 'qrels'));
    await writeFile(join(directory, 'corpus.jsonl.gz'), gzipSync('{"_id": "1", "text": "a"}\n{not json\n'));
    await expect(loadSciFact({ directory })).rejects.toSatisfy((error: unknown) => CorruptDataError.isInstance(error) && error.message.includes('corpus.jsonl.gz:2'));
  });
});

describeWithData('fever-lite', 'loadFeverLite', () => {
  it('pools every evidence sentence of the split as the corpus and makes them the relevant documents', async () => {
    const dataset = await loadFeverLite({ directory: join(DATA_ROOT, 'fever-lite'), limit: 3 });
    expect(dataset.claims).toHaveLength(3);
    expect(dataset.claims[0]?.text).toBe('Fox 2000 Pictures released the film Soul Food.');
    expect(dataset.claims.map((claim) => claim.label)).toEqual(['supported', 'refuted', 'refuted']); // SUPPORTS, REFUTES, REFUTES in validation.jsonl
    expect(dataset.corpus).toHaveLength(3493); // distinct evidence sentences of validation.jsonl, counted with Python
    const ids = new Set(dataset.corpus.map((document) => document.id));
    for (const claim of dataset.claims) {
      expect(Object.keys(claim.relevant)).toHaveLength(claim.evidence.length);
      for (const id of Object.keys(claim.relevant)) expect(ids.has(id)).toBe(true);
    }
  });
});
