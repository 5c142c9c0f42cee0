// Checks one answer for factual hallucinations and prints the whole chain (claims, queries, evidence, verdicts,
// sentence and response labels); writes the JSON result too.
//
// Offline (default): LLM-free drafter baseline + BM25 over the local corpus + lexical NLI verifier.
//   pnpm --filter hallucination-check check -- --question "..." --answer "..." [--out out/check.json]
// Paper setting: set OPENAI_BASE_URL (+ OPENAI_API_KEY, FACTKIT_MODEL) for the JointCQ generator and LLM verifier, and
// SERPER_API_KEY for web search (see README).
import { mkdirSync, writeFileSync } from 'node:fs';
import { createJointCqGenerator, createLlmVerifier, detectHallucinations } from '@factkit/claim-query';
import { withCache } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createGloveEmbedder } from '@factkit/glove';
import { createSerperRetriever } from '@factkit/serper';
import { createOpenAICompatibleModel } from '@factkit/openai';
import { formatDetection } from './format-detection.js';
import { createOfflineComponents } from './offline-components.js';
import { readArguments } from './shared.js';

const args = readArguments(process.argv.slice(2));
const question = args.get('question') ?? 'Which company released the film Soul Food?';
const answer = args.get('answer') ?? 'Soul Food was released by Fox 2000 Pictures. It is a 2005 science fiction film.';
const outPath = args.get('out') ?? 'out/check.json';

const offline = createOfflineComponents();
let components = { generator: offline.generator, retriever: offline.retriever, verifier: offline.verifier };
const cacheDirectory = new URL('../out/.cache/check/', import.meta.url).pathname;
if (process.env['OPENAI_BASE_URL']) {
  // Paper setting: the JointCQ generator (FACTKIT_MODEL) and the LLM verifier (VERIFIER_MODEL), calls cached on disk.
  const connect = (model: string) => withCache(createOpenAICompatibleModel({ model, maxRetries: 4 }), createFileCache({ directory: `${cacheDirectory}llm` }));
  const generatorModel = process.env['FACTKIT_MODEL'] ?? 'jointcq';
  components = {
    ...components,
    generator: createJointCqGenerator({ model: connect(generatorModel) }),
    verifier: createLlmVerifier({ model: connect(process.env['VERIFIER_MODEL'] ?? generatorModel) }),
  };
}
if (process.env['SERPER_API_KEY']) {
  const chinese = /[\u4e00-\u9fff]/u.test(answer);
  components = { ...components, retriever: createSerperRetriever({ ...(chinese ? { country: 'cn', language: 'zh-cn' } : {}), cache: createFileCache({ directory: `${cacheDirectory}serper` }) }) };
}
process.stderr.write(`pipeline: ${components.generator.id} → ${components.retriever.id} (${offline.corpusSize} local passages offline) → ${components.verifier.id}\n`);
const [result] = await detectHallucinations({
  items: [{ id: 'input', question, answer }],
  ...components,
  // Claims from an LLM carry no sentence index: align them with averaged GloVe vectors (offline stand-in for the paper's mpnet).
  ...(process.env['OPENAI_BASE_URL'] ? { embedder: createGloveEmbedder() } : {}),
});
if (!result) throw new Error('no result');
console.log(formatDetection(result));
mkdirSync(new URL('../out/', import.meta.url), { recursive: true });
writeFileSync(new URL(`../${outPath}`, import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
process.stderr.write(`\nJSON written to examples/hallucination-check/${outPath}\n`);
if (result.status !== 'ok') process.exitCode = 1;
