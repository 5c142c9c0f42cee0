// Reference mode (RefChecker's "accurate context") against corpus mode on SciFact: each claim is an answer; checked
// against its cited abstract(s) as `reference`, or by searching the 5,183 SciFact abstracts with BM25 (corpus mode).
// Gold: a claim with a CONTRADICT rationale is hallucinated, one with SUPPORT rationales is not; claims without
// rationales are left out. The reference window size (`passageWindowSentences`) is chosen on the train claims
// (validation side) and the test number is the dev claims, reported once.
//
//   pnpm --filter hallucination-check exec tsx src/scifact-reference.ts [--split train|dev] [--nli lexical|feature] [--windows 1,2,3,4,6,8,whole]
// --nli feature: the GloVe feature NLI model of @factkit/nli-models was trained on SciFact pairs; only claims whose
// pairs are all in its held-out split are used then.
import { createDrafterGenerator, createNliVerifier, detectHallucinations, evaluateDetections, type DetectionGold, type QaItem } from '@factkit/claim-query';
import { createGloveEmbedder } from '@factkit/glove';
import { createFeatureNliModel, createLexicalNliModel } from '@factkit/nli-models';
import { createBm25Retriever, createBm25RetrieverFactory } from '@factkit/retrieval';
import { heldOutPairs, NLI_PAIR_DATASETS, requireNliPairDataRoot } from '@factkit/test-utils/nli-pairs';
import { needData, readArguments, readJsonl } from './shared.js';

interface SciFactClaim {
  readonly id: number;
  readonly claim: string;
  readonly evidence: Readonly<Record<string, readonly { readonly sentences: readonly number[]; readonly label: 'SUPPORT' | 'CONTRADICT' }[]>>;
  readonly cited_doc_ids: readonly number[];
}

needData('scifact');
const args = readArguments(process.argv.slice(2));
const split = args.get('split') ?? 'train';
const nliName = args.get('nli') ?? 'lexical';
// 'whole' = the default: every cited abstract verified whole.
const windows = (args.get('windows') ?? '1,2,3,4,6,8,whole').split(',').map((w) => (w === 'whole' ? undefined : Number(w)));

const abstracts = new Map(readJsonl<{ doc_id: number; title: string; abstract: string[] }>('scifact', 'corpus_sentences.jsonl.gz').map((doc) => [doc.doc_id, doc]));
let claims = readJsonl<SciFactClaim>('scifact', split === 'dev' ? 'claims_dev.jsonl' : 'claims_train.jsonl').filter((claim) => Object.keys(claim.evidence).length > 0);
if (nliName === 'feature') {
  needData(...NLI_PAIR_DATASETS);
  const heldOut = new Set(
    heldOutPairs(requireNliPairDataRoot())
      .filter((pair) => pair.source === 'scifact')
      .map((pair) => pair.hypothesis),
  );
  claims = claims.filter((claim) => heldOut.has(claim.claim));
}

const gold = new Map<string, DetectionGold>();
const rows: QaItem[] = claims.map((claim) => {
  const hallucinated = Object.values(claim.evidence).some((sets) => sets.some((set) => set.label === 'CONTRADICT'));
  gold.set(String(claim.id), { response: hallucinated });
  const reference = claim.cited_doc_ids.map((id) => abstracts.get(id)?.abstract.join(' ') ?? '').filter(Boolean);
  return { id: String(claim.id), question: '', answer: claim.claim, reference };
});

const nli = nliName === 'feature' ? createFeatureNliModel({ embedder: createGloveEmbedder() }) : createLexicalNliModel();
const verifier = createNliVerifier({ nli });
const generator = createDrafterGenerator();
const corpus = readJsonl<{ _id: string; title: string; text: string }>('scifact', 'corpus.jsonl.gz').map((doc) => ({ id: doc._id, title: doc.title, text: doc.text }));

function balancedAccuracy(results: Awaited<ReturnType<typeof detectHallucinations>>): number {
  let tp = 0;
  let positives = 0;
  let tn = 0;
  let negatives = 0;
  for (const result of results) {
    if (result.status !== 'ok') continue;
    const truth = gold.get(result.id)!.response;
    const flagged = result.responseLabel === 'hallucinated';
    if (truth) {
      positives += 1;
      if (flagged) tp += 1;
    } else {
      negatives += 1;
      if (!flagged) tn += 1;
    }
  }
  return (tp / positives + tn / negatives) / 2;
}

const systems: { name: string; run: () => ReturnType<typeof detectHallucinations> }[] = [
  { name: 'corpus (BM25 over 5,183 abstracts)', run: () => detectHallucinations({ items: rows.map(({ reference: _r, ...row }) => row), generator, retriever: createBm25Retriever(corpus), verifier }) },
  ...windows.map((w) => ({
    name: `reference, ${w === undefined ? 'whole abstract (default)' : `${w}-sentence windows`}`,
    run: () => detectHallucinations({ items: rows, generator, verifier, passageRetrieverFactory: createBm25RetrieverFactory(), ...(w === undefined ? {} : { passageWindowSentences: w }) }),
  })),
];
const positives = [...gold.values()].filter((g) => g.response).length;
console.log(`SciFact ${split} claims with rationales${nliName === 'feature' ? ' held out of the feature NLI training' : ''}: ${rows.length} (${positives} contradicted = hallucinated); verifier ${verifier.id}`);
console.log('| mode | n | accuracy | balanced accuracy | hallucination P | R | F1 | unverifiable | factual precision (mean) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const system of systems) {
  const results = await system.run();
  const evaluation = evaluateDetections(results, gold);
  const overall = evaluation.response.overall;
  const precisions = results.map((r) => r.factualPrecision).filter((p): p is number => p !== null);
  const mean = precisions.length === 0 ? 'n/a' : (precisions.reduce((a, b) => a + b, 0) / precisions.length).toFixed(3);
  console.log(
    `| ${system.name} | ${overall.n} | ${overall.accuracy.toFixed(3)} | ${balancedAccuracy(results).toFixed(3)} | ${overall.precision.toFixed(3)} | ${overall.recall.toFixed(3)} | ${overall.f1.toFixed(3)} | ${evaluation.response.nUnverifiable} | ${mean} |`,
  );
}
const allHallucinated = (2 * positives) / (rows.length + positives);
console.log(`baselines: all-hallucinated accuracy ${(positives / rows.length).toFixed(3)}, F1 ${allHallucinated.toFixed(3)}, balanced accuracy 0.500; all-correct accuracy ${(1 - positives / rows.length).toFixed(3)}, F1 0.000`);
