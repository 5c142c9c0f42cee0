// The JointCQ training-data pipeline (§3.2–3.4) as a script: two-step synthesis with 3-shot examples → the six
// criteria → stratified sampling by claim count with caps → 9:1 split → chat-format JSONL, with the funnel counts.
// Input QA pairs: HalluQA judged answers (Chinese) and FEVER-composed answers (English) from the data root.
//
// Scripted (default, offline): an in-process local server plays synthesiser and evaluator (drafted claims, RAKE
// queries, "No" for claims opening with a pronoun and for queries over 12 words, else "Yes"): plumbing only.
//   pnpm --filter hallucination-check training-data [--pairs 200] [--total 50]
// Real: OPENAI_BASE_URL=… SYNTH_MODEL=<e.g. Qwen3-32B> EVAL_MODEL=<e.g. Qwen3-32B> pnpm --filter hallucination-check training-data -- --real
// Both runs are resumable: every call goes through a file cache under out/.cache/training, so a re-run repeats none.
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildTrainingData, createTwoStepGenerator, toChatJsonl } from '@factkit/claim-query';
import { withCache, withRetry } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createGloveEmbedder } from '@factkit/glove';
import { createOpenAICompatible } from '@factkit/openai';
import { composeFeverResponses, type FeverClaim } from './fever-compose.js';
import { startLocalChatServer } from './local-chat-server.js';
import { scriptedTrainingReply } from './scripted-models.js';
import { needData, readArguments, readJsonl } from './shared.js';
import { CLAIM_EXAMPLES, QUERY_EXAMPLES } from './training-examples.js';

needData('fever-lite', 'halluqa');
const args = readArguments(process.argv.slice(2));
const real = args.has('real');
const pairs = Number(args.get('pairs') ?? 200);
const total = Number(args.get('total') ?? 50);

const fever = composeFeverResponses(readJsonl<FeverClaim>('fever-lite', 'validation.jsonl'), { count: pairs / 2, seed: 99 }).responses;
const halluqa = readJsonl<{ model: string; question_id: number; question: string; response: string }>('halluqa', 'judged_responses.jsonl.gz').slice(0, pairs / 2);
const items = [
  ...fever.map((r) => ({ id: `fever:${r.id}`, question: 'Tell me some facts.', answer: r.answer, language: 'en' as const })),
  ...halluqa.map((r) => ({ id: `halluqa:${r.model}#${r.question_id}`, question: r.question, answer: r.response, language: 'zh' as const })),
];

const server = real ? undefined : await startLocalChatServer((prompt) => scriptedTrainingReply(prompt));
const baseUrl = real ? process.env['OPENAI_BASE_URL'] : server!.url;
const cache = createFileCache({ directory: new URL(`../out/.cache/training/${real ? 'real' : 'scripted'}/`, import.meta.url).pathname });
const connect = (model: string) => withCache(withRetry(createOpenAICompatible({ ...(baseUrl ? { baseURL: baseUrl } : {}), ...(real ? {} : { apiKey: 'sk-scripted' }) }).languageModel(model), { maxRetries: 4 }), cache);
try {
  const result = await buildTrainingData({
    items,
    synthesizer: createTwoStepGenerator({
      model: connect(process.env['SYNTH_MODEL'] ?? 'scripted-model'),
      claimExamples: CLAIM_EXAMPLES,
      queryExamples: QUERY_EXAMPLES,
      embedder: createGloveEmbedder(),
      temperature: real ? 0.9 : 0,
    }),
    evaluator: connect(process.env['EVAL_MODEL'] ?? 'scripted-model'),
    totalPerLanguage: total,
    onProgress: ({ completed: done, total: all, failed = 0 }) => process.stderr.write(`  ${done}/${all} QA pairs, ${done - failed} passed all criteria\n`),
  });
  const out = new URL('../out/training/', import.meta.url);
  mkdirSync(out, { recursive: true });
  writeFileSync(new URL('train.jsonl', out), toChatJsonl(result.train));
  writeFileSync(new URL('test.jsonl', out), toChatJsonl(result.test));
  writeFileSync(new URL('funnel.json', out), JSON.stringify({ funnel: result.funnel, perGroup: result.perGroup, rejected: result.rejected.length }, null, 2));
  const f = result.funnel;
  console.log(`\nTraining data (${real ? 'REAL models' : 'SCRIPTED local server: plumbing only'})`);
  console.log(`QA pairs ${f.qaPairs} → synthesised ${f.synthesized} (failed ${f.synthesisFailed}, no claims ${f.noClaims}) → passed all criteria ${f.passedAll} → selected ${f.selected} → train ${f.train} / test ${f.test}`);
  console.log('| criterion | judged | passed | pass rate |');
  console.log('| --- | --- | --- | --- |');
  for (const criterion of Object.keys(f.judged) as (keyof typeof f.judged)[]) {
    console.log(`| ${criterion} | ${f.judged[criterion]} | ${f.passed[criterion]} | ${f.judged[criterion] ? ((100 * f.passed[criterion]) / f.judged[criterion]).toFixed(2) : 'n/a'}% |`);
  }
  console.log(`undecided criterion calls: ${f.undecided}; claim-count groups: ${JSON.stringify(result.perGroup)}`);
  console.log('Wrote examples/hallucination-check/out/training/{train,test}.jsonl and funnel.json');
  if (f.synthesisFailed > 0 || f.undecided > 0) process.exitCode = 1;
} finally {
  await server?.close();
}
