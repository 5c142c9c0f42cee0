import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeAveritecEvidenceScore } from '@factkit/metrics';
import { loadWordNetSynonyms } from '@factkit/metrics/node';
import { createBm25Retriever } from '@factkit/retrieval';
import { describe, expect, it } from 'vitest';
import { findDataRoot } from '@factkit/test-utils/data';
import { describeWithData } from '@factkit/test-utils';
// The data root (read in the suites below, which are skipped without it).
const DATA_ROOT = findDataRoot() ?? '<no data root>';
import { loadAveritec, loadAveritecKnowledgeStore } from '../src/averitec-data.js';
import { runCli } from '../src/cli.js';

const CLAIMS = 3;

/** A small per-claim knowledge store in the official layout: each claim's answers hidden among distractor passages. */
async function writeStore(directory: string): Promise<void> {
  const dataset = await loadAveritec({ directory: join(DATA_ROOT, 'averitec'), limit: CLAIMS });
  await mkdir(directory, { recursive: true });
  for (const claim of dataset.claims.slice(0, CLAIMS - 1)) {
    const lines = [
      { url: 'https://example.org/a', url2text: ['The weather was mild across the region. Markets closed slightly higher on Tuesday.'] },
      { url: 'https://example.org/b', url2text: [claim.evidence.join(' ')] },
      { url: 'https://example.org/c', url2text: ['A local team won the regional football cup after extra time.'] },
    ];
    await writeFile(join(directory, `${claim.id}.json`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  }
  // The last claim has no store file: it must be reported, not silently scored as zero.
}

describeWithData('averitec', 'AVeriTeC', () => {
  it("loads the dev claims with the scorer's QA references as gold evidence and four verdict labels", async () => {
    const dataset = await loadAveritec({ directory: join(DATA_ROOT, 'averitec') });
    expect(dataset.claims).toHaveLength(400);
    expect(dataset.claims[0]?.evidence[0]).toBe('Where was the claim first published It was first published on Sccopertino');
    expect(new Set(dataset.claims.map((claim) => claim.label))).toEqual(new Set(['refuted', 'supported', 'not enough evidence', 'conflicting evidence/cherrypicking']));
  });

  it('without a knowledge store says which columns need it; with one, scores Hungarian METEOR (and GloVe BERTScore) on the top-k', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'leakage-averitec-'));
    await expect(runCli(['--dataset', 'averitec', '--limit', '2', '--out', directory], { env: {}, log: () => {} })).rejects.toThrow(/--knowledge-store/);

    const store = join(directory, 'store');
    await writeStore(store);
    const outcome = await runCli(['--dataset', 'averitec', '--limit', String(CLAIMS), '--knowledge-store', store, '--out', join(directory, 'out'), '--cache', join(directory, 'cache')], {
      env: {},
      log: () => {},
    });
    const report = await readFile(outcome.reportPath, 'utf8');
    expect(report).toContain('| Method | Data | meteor@5 | bertscore@5 | meteor@10 | bertscore@10 | claim × repeat runs |');
    expect(report).toContain('GloVe 100-d token vectors');
    // One claim has no store file: counted, shown, and the command exits 3 (not whole).
    expect(report).toContain('1 of 3 claims have no knowledge-store file');
    expect(outcome.exitCode).toBe(3);

    // The baseline METEOR@5 equals a direct computation: per-claim BM25 top 5, Hungarian METEOR vs the QA references.
    const dataset = await loadAveritec({ directory: join(DATA_ROOT, 'averitec'), limit: CLAIMS });
    const { stores } = await loadAveritecKnowledgeStore(
      store,
      dataset.claims.map((claim) => claim.id),
    );
    const wordnet = await loadWordNetSynonyms();
    const scores: number[] = [];
    for (const claim of dataset.claims) {
      const documents = stores.get(claim.id);
      if (!documents) continue;
      const { evidence } = await createBm25Retriever(documents).retrieve({ query: { id: claim.id, text: claim.text }, topK: 5 });
      scores.push(
        computeAveritecEvidenceScore(
          evidence.map((item) => item.text),
          claim.evidence,
          { synonyms: wordnet.lookup },
        ).score,
      );
    }
    // The claim without a store retrieves nothing and scores 0 there; it is still a claim of the mean.
    const expected = (scores.reduce((sum, value) => sum + value, 0) / CLAIMS) * 100;
    const row = report.split('\n').find((line) => line.startsWith('| BM25 | ALL |'));
    expect(Number(row?.split('|')[3]?.trim())).toBeCloseTo(expected, 1);
    expect(Number(row?.split('|')[4]?.trim())).toBeGreaterThan(0);
  }, 180_000);
});
