// Checks one answer for factual hallucinations and prints the whole chain: sentences → claims → queries → evidence
// (with sources) → verdicts → sentence and response labels.
//
//   pnpm --filter hallucination-check check -- --question "..." --answer "..." [--json]
//
// Offline (default): the LLM-free drafter baseline, BM25 over a local corpus and a trained offline NLI verifier
// (offline-components.ts). Paper setting: OPENAI_BASE_URL (+ OPENAI_API_KEY, FACTKIT_MODEL, VERIFIER_MODEL) for the
// JointCQ generator and the LLM verifier; SERPER_API_KEY for web search.
import { parseArgs } from 'node:util';
import { createJointCqGenerator, createLlmVerifier, detectHallucinations, formatDetectionText } from '@factkit/claim-query';
import { withCache, withRetry } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createGloveEmbedder } from '@factkit/glove';
import { createOpenAICompatible } from '@factkit/openai';
import { createSerperRetriever } from '@factkit/serper';
import { createOfflineComponents } from './offline-components.js';
import { needData } from './shared.js';

needData('fever-lite', 'halluqa');
const { values } = parseArgs({
  options: {
    question: { type: 'string', default: 'Which company released the film Soul Food?' },
    answer: { type: 'string', default: 'Soul Food was released by Fox 2000 Pictures. It is a 2005 science fiction film.' },
    json: { type: 'boolean', default: false },
  },
});
const cache = (name: string) => createFileCache({ directory: new URL(`../out/.cache/check/${name}/`, import.meta.url).pathname });

let { generator, retriever, verifier } = createOfflineComponents();
const endpoint = process.env['OPENAI_BASE_URL'] ? createOpenAICompatible() : undefined;
if (endpoint) {
  const model = (id: string) => withCache(withRetry(endpoint.languageModel(id), { maxRetries: 4 }), cache('llm'));
  const generatorModel = process.env['FACTKIT_MODEL'] ?? 'jointcq';
  generator = createJointCqGenerator({ model: model(generatorModel) });
  verifier = createLlmVerifier({ model: model(process.env['VERIFIER_MODEL'] ?? generatorModel) });
}
if (process.env['SERPER_API_KEY']) {
  const chinese = /[\u4e00-\u9fff]/u.test(values.answer);
  retriever = createSerperRetriever({ ...(chinese ? { country: 'cn', language: 'zh-cn' } : {}), cache: cache('serper') });
}

const [result] = await detectHallucinations({
  items: [{ id: 'input', question: values.question, answer: values.answer }],
  generator,
  retriever,
  verifier,
  // Claims from an LLM carry no sentence index: align them with averaged GloVe vectors (offline stand-in for mpnet).
  ...(endpoint ? { embedder: createGloveEmbedder() } : {}),
});
console.log(values.json ? JSON.stringify(result, null, 2) : formatDetectionText(result!));
if (result!.status !== 'ok') process.exitCode = 1;
