// FEVER-composed hallucination detection, offline: responses of 1–4 FEVER-lite claims (REFUTES = hallucinated
// sentence), searched with BM25 over the pooled gold-evidence sentences, verified by an offline NLI model, aligned.
// Systems: LLM-free drafter (baseline for the claim-query generator), "whole response as one claim", and
// "query = claim" (the paper's w/o q ablation). No LLM is involved; these are classical baselines, not JointCQ.
//
//   pnpm --filter hallucination-check fever-eval [--responses 300] [--seed 13] [--nli lexical|feature] [--out out/fever-eval.json]
// --nli feature uses the classical GloVe/WordNet NLI classifier of @factkit/nli-models. It was trained on FEVER-lite
// pairs, so that run composes responses only from FEVER-lite claims held out of its training (the claims of its
// held-out pairs, rebuilt from the data root), searching the evidence pooled from validation + test.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createDrafterGenerator, createNliVerifier, createWholeResponseGenerator, detectHallucinations, evaluateDetections, withClaimsAsQueries, type ClaimQueryGenerator, type DetectionGold } from '@factkit/claim-query';
import type { Embedder } from '@factkit/core';
import { createGloveEmbedder } from '@factkit/glove';
import { createFeatureNliModel, createLexicalNliModel } from '@factkit/nli-models';
import { createBm25Retriever } from '@factkit/retrieval';
import { heldOutPairs, NLI_PAIR_DATASETS, requireNliPairDataRoot } from '@factkit/test-utils/nli-pairs';
import { composeFeverResponses, poolEvidence, type FeverClaim } from './fever-compose.js';
import { formatDetectionTable, type DetectionRow } from './detection-table.js';
import { needData, percent, readArguments, readJsonl } from './shared.js';

needData('fever-lite');
const args = readArguments(process.argv.slice(2));
const count = Number(args.get('responses') ?? 300);
const seed = Number(args.get('seed') ?? 13);
const outPath = args.get('out') ?? 'out/fever-eval.json';

const nliName = args.get('nli') ?? 'lexical';
const validation = readJsonl<FeverClaim>('fever-lite', 'validation.jsonl');
let claims = validation;
let subset = 'FEVER-lite validation';
if (nliName === 'feature' || args.has('held-out')) {
  needData(...NLI_PAIR_DATASETS);
  const heldOut = new Set(
    heldOutPairs(requireNliPairDataRoot())
      .filter((pair) => pair.source === 'fever')
      .map((pair) => pair.hypothesis),
  );
  claims = [...validation, ...readJsonl<FeverClaim>('fever-lite', 'test.jsonl')];
  claims = claims.filter((claim) => heldOut.has(claim.claim));
  subset = "FEVER-lite claims held out of the feature NLI model's training";
}
const { responses, skipped } = composeFeverResponses(claims, { count, seed });
const corpus = poolEvidence(subset.startsWith('FEVER-lite validation') ? validation : [...validation, ...readJsonl<FeverClaim>('fever-lite', 'test.jsonl')]);
const retriever = createBm25Retriever(corpus);
const embedder: Embedder = createGloveEmbedder();
const nli = nliName === 'feature' ? createFeatureNliModel({ embedder }) : createLexicalNliModel();
const verifier = createNliVerifier({ nli, aggregation: 'decisive-majority' }); // the rule docs/claim-query.md tables A and B were measured with
const anyEntailmentVerifier = createNliVerifier({ nli, aggregation: 'any-entailment' });
const gold = new Map<string, DetectionGold>(responses.map((r) => [r.id, { response: r.responseGold, sentences: r.sentenceGold }]));

const sentenceCount = responses.reduce((sum, r) => sum + r.sentenceGold.length, 0);
const hallucinatedResponses = responses.filter((r) => r.responseGold).length;
const hallucinatedSentences = responses.reduce((sum, r) => sum + r.sentenceGold.filter(Boolean).length, 0);
process.stderr.write(
  `FEVER-composed: ${responses.length} responses (${hallucinatedResponses} hallucinated), ${sentenceCount} sentences (${hallucinatedSentences} hallucinated); ` +
    `from ${subset}; ${skipped} groups skipped (segmenter split differently); corpus ${corpus.length} pooled evidence sentences; seed ${seed}\n`,
);

const systems: Array<[string, ClaimQueryGenerator, typeof verifier]> = [
  ['drafter (sentences + RAKE queries)', createDrafterGenerator(), verifier],
  ['whole response as one claim', createWholeResponseGenerator(), verifier],
  ['query = claim (w/o q)', withClaimsAsQueries(createDrafterGenerator()), verifier],
  ['drafter, NLI any-entailment', createDrafterGenerator(), anyEntailmentVerifier],
];

const rows: DetectionRow[] = [];
for (const [name, generator, systemVerifier] of systems) {
  const started = Date.now();
  const results = await detectHallucinations({
    items: responses.map((r) => ({ id: r.id, question: r.question, answer: r.answer, language: 'en' as const })),
    generator,
    retriever,
    verifier: systemVerifier,
    embedder,
    onProgress: ({ completed: done, total }) => {
      if (done % 50 === 0 || done === total) process.stderr.write(`  ${name}: ${done}/${total}\n`);
    },
  });
  const evaluation = evaluateDetections(results, gold);
  rows.push({ system: name, evaluation, failed: results.filter((r) => r.status !== 'ok').length });
  process.stderr.write(`  ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

console.log(`\nFEVER-composed responses from ${subset} (n=${responses.length}, sentences=${sentenceCount}); BM25 top-10 over ${corpus.length} pooled evidence sentences; verifier ${verifier.id} (last row: ${anyEntailmentVerifier.id})`);
console.log('Unverifiable counted as not hallucinated ("overall", paper Tables 2/3) and left out ("verifiable", Tables 11/12).\n');
console.log(formatDetectionTable(rows));
// Reference: the trivial "always hallucinated" predictor (F1 = 2p / (1 + p) for positive share p).
const trivial = (positives: number, total: number): string => `Acc ${percent(positives / total)}, F1 ${percent((2 * positives) / (positives + total))}`;
console.log(`\nReference, always "hallucinated": responses ${trivial(hallucinatedResponses, responses.length)}; sentences ${trivial(hallucinatedSentences, sentenceCount)}.`);
const incomplete = rows.filter((row) => row.failed > 0 || row.evaluation.problems.length > 0);
mkdirSync(new URL('../out/', import.meta.url), { recursive: true });
writeFileSync(new URL(`../${outPath}`, import.meta.url), JSON.stringify({ seed, responses: responses.length, sentenceCount, skipped, corpus: corpus.length, verifier: verifier.id, rows }, null, 2));
if (incomplete.length > 0) {
  console.error(`INCOMPLETE: ${incomplete.map((row) => `${row.system}: ${row.failed} failed item(s), ${row.evaluation.problems.length} problem(s)`).join('; ')}`);
  process.exitCode = 1;
}
