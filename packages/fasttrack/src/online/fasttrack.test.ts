import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMockEmbedder, createMockLanguageModel, createMockNliModel } from '@factkit/core/testing';
import { describeRetrieverContract, describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { TOPIC_DOCUMENTS } from '../../test/fixtures.js';
import { buildFastTrackIndex } from '../index/fasttrack-index.js';
import { createLlmSupportJudge } from '../judge/llm-support-judge.js';
import { createNliSupportJudge } from '../judge/nli-support-judge.js';
import { isSupporting } from '../judge/support-judge.js';
import { createClassTfidfLabeller } from '../labels/class-tfidf-labeller.js';
import { createFastTrack } from './fasttrack.js';

const embedder = createMockEmbedder({ dimensions: 64 });
const labeller = createClassTfidfLabeller({ topN: 8 });
const build = (seed: number) => buildFastTrackIndex(TOPIC_DOCUMENTS, { embedder, labeller, k: 4, maxLeafSize: 5, seed }).then(({ index }) => index);

describe('createFastTrack', () => {
  it('retrieves the matching leaves, judges their documents and keeps the supporting ones with their cluster paths', async () => {
    const index = await build(1);
    const nli = createMockNliModel();
    const fastTrack = createFastTrack({ index, judge: createNliSupportJudge({ model: nli }), embedder, limit: 2 });
    const result = await fastTrack.trace('Kerala coronavirus cases');
    expect(result.clusters.length).toBeGreaterThan(0);
    expect(result.clusters.length).toBeLessThanOrEqual(2);
    // Exactly the documents of the retrieved leaves were judged, each once.
    const leafDocuments = result.clusters.flatMap((leaf) => (index.tree.nodes[leaf.leafId]?.members ?? []).map((row) => index.documents[row]?.id));
    expect(result.judgements.map((judgement) => judgement.documentId)).toEqual(leafDocuments);
    expect(result.cost.candidatesJudged).toBe(leafDocuments.length);
    expect(result.cost.bruteForce.candidates).toBe(20);
    // The mock NLI model entails when every query word occurs in the candidate.
    for (const document of result.supporting) {
      expect(document.text.toLowerCase()).toMatch(/kerala/);
      expect(document.clusterPaths[0]?.path).toEqual(index.tree.nodes[document.clusterPaths[0]?.leafId as number]?.path);
    }
    expect(result.supporting.map((document) => document.documentId)).toEqual(result.judgements.filter(isSupporting).map((judgement) => judgement.documentId));
  });

  it('lists the candidates the judge could not decide in `unjudged`, leaves them out of `supporting`, and keeps the rest', async () => {
    const index = await build(1);
    const model = createMockLanguageModel({
      responses: () => {
        throw new Error('HTTP 503 from the mock');
      },
    });
    const fastTrack = createFastTrack({ index, judge: createLlmSupportJudge({ model }), embedder, limit: 2 });
    const result = await fastTrack.trace('Kerala coronavirus cases');
    expect(result.judgements.length).toBeGreaterThan(0);
    expect(result.unjudged).toEqual(result.judgements.map((judgement) => judgement.documentId));
    expect(result.judgements.every((judgement) => judgement.status === 'failed')).toBe(true);
    expect(result.supporting).toEqual([]);
    const nliResult = await createFastTrack({ index, judge: createNliSupportJudge({ model: createMockNliModel() }), embedder, limit: 2 }).trace('Kerala coronavirus cases');
    expect(nliResult.unjudged).toEqual([]);
  });

  it('unions the candidates of an ensemble of clusterings without judging a document twice', async () => {
    const indexes = [await build(1), await build(2), await build(3)];
    const judge = createNliSupportJudge({ model: createMockNliModel() });
    const single = await createFastTrack({ index: indexes[0]!, judge }).candidates('Scottish Parliament member');
    const ensemble = await createFastTrack({ index: indexes, judge }).candidates('Scottish Parliament member');
    expect(new Set(ensemble.documentIds).size).toBe(ensemble.documentIds.length);
    for (const id of single.documentIds) expect(ensemble.documentIds).toContain(id);
    expect(new Set(ensemble.clusters.map((leaf) => leaf.clustering))).toEqual(new Set([0, 1, 2]));
  });

  it('accounts LLM cost per query beside brute force', async () => {
    const index = await build(1);
    const model = createMockLanguageModel({ responses: (request) => `#analysis: a\n#scores: ${[...(request.prompt ?? '').slice((request.prompt ?? '').lastIndexOf('Group of Texts: ')).matchAll(/Text \d+:/g)].map(() => 0).join(', ')}` });
    const result = await createFastTrack({ index, judge: createLlmSupportJudge({ model, batchSize: 3 }), limit: 1 }).trace('Black Mass film');
    expect(result.cost.llmCalls).toBe(Math.ceil(result.cost.candidatesJudged / 3));
    expect(result.cost.bruteForce.llmCalls).toBe(Math.ceil(20 / 3));
    expect(result.cost.bruteForce.estimatedTokens).toBeGreaterThan(result.cost.usage.totalTokens);
    expect(result.calls.every((call) => call.provenance?.step === 'fasttrack.judge')).toBe(true);
  });

  it('rejects an ensemble over different documents', async () => {
    const index = await build(1);
    const other = await buildFastTrackIndex(TOPIC_DOCUMENTS.slice(0, 10), { embedder, labeller, k: 3, maxLeafSize: 5 });
    expect(() => createFastTrack({ index: [other.index, other.index], judge: createNliSupportJudge({ model: createMockNliModel() }) })).not.toThrow();
    expect(() => createFastTrack({ index: [other.index, index], judge: createNliSupportJudge({ model: createMockNliModel() }) })).toThrow(/"index\[1\]"/);
  });
});

describeRetrieverContract(
  'fasttrack',
  async () => createFastTrack({ index: await build(1), judge: createNliSupportJudge({ model: createMockNliModel({ label: (pair) => (/glacier/i.test(pair.premise) ? 'entailment' : 'neutral') }) }) }).retriever,
  { query: 'glaciers melting', expectedId: 'd15' },
);

interface VitaminRow {
  unique_id: string;
  label: 'SUPPORTS' | 'REFUTES' | 'NOT ENOUGH INFO';
  claim: string;
  evidence: string;
}

describeWithData('vitaminc-sample', 'VitaminC sample (contrastive: claim-relevant evidence that does not support it)', (vitaminc) => {
  const path = join(vitaminc, 'vitaminc_sample.jsonl');
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as VitaminRow);
  const gold = new Map(rows.map((row) => [`${row.claim}\u0000${row.evidence}`, row.label]));

  it('keeps SUPPORTS evidence and drops REFUTES/NEI evidence of the same claim, through malformed replies', async () => {
    const documents = rows.map((row) => ({ id: row.unique_id, text: row.evidence }));
    const { index } = await buildFastTrackIndex(documents, { embedder, labeller, seed: 4 });
    // The scripted LLM scores by the VitaminC gold label of (claim, text); every 4th batch reply has a wrong count.
    let calls = 0;
    const model = createMockLanguageModel({
      responses: (request) => {
        const prompt = request.prompt ?? '';
        const tail = prompt.slice(prompt.lastIndexOf('Fact: '));
        const claim = tail.slice(6, tail.indexOf('\nGroup of Texts: '));
        const texts = [...tail.matchAll(/Text \d+: (.*)/g)].map((match) => match[1] as string);
        const scores = texts.map((text) => (gold.get(`${claim}\u0000${text}`) === 'SUPPORTS' ? 1 : 0));
        calls++;
        if (texts.length > 1 && calls % 4 === 0) scores.pop();
        return `#analysis: scripted\n#scores: ${scores.join(', ')}`;
      },
    });
    const fastTrack = createFastTrack({ index, judge: createLlmSupportJudge({ model }), embedder, limit: 3 });
    const relevantButNot = rows.filter((row) => row.label !== 'SUPPORTS').slice(0, 25);
    const supported = rows.filter((row) => row.label === 'SUPPORTS').slice(0, 25);
    let retrievedOwnEvidence = 0;
    for (const row of [...relevantButNot, ...supported]) {
      const result = await fastTrack.trace(row.claim);
      const ids = result.supporting.map((document) => document.documentId);
      const candidate = result.judgements.some((judgement) => judgement.documentId === row.unique_id);
      if (candidate) retrievedOwnEvidence++;
      if (row.label === 'SUPPORTS') expect(ids.includes(row.unique_id)).toBe(candidate);
      else expect(ids).not.toContain(row.unique_id);
      expect(result.judgements.every((judgement) => judgement.status === 'ok')).toBe(true);
    }
    // Stage 1 brings the claim's own evidence into the candidates for most claims.
    expect(retrievedOwnEvidence).toBeGreaterThan(25);
  });
});
