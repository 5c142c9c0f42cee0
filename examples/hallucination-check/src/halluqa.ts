// HalluQA response-level detection (the paper's Table 2 HalluQA columns): the Chinese JointCQ prompts (Table 22,
// Table 24) and parsers over HalluQA's `Knowledge` questions and the 24 models' judged answers.
//
// Scripted (default, offline): an in-process OpenAI-compatible server on 127.0.0.1 answers the generator with a
// drafted [陈述]/[查询]/[结束] block (every 5th one deliberately malformed) and the verifier with 正确/无关 by word
// overlap, searching BM25 over HalluQA's Source passages. It exercises prompts, parser and pipeline over every answer;
// its accuracy measures nothing about JointCQ.
//   pnpm --filter hallucination-check halluqa [--limit 200] [--models a,b]
// Real setting: a served claim-query generator and verifier (OpenAI-compatible) and a Serper key:
//   OPENAI_BASE_URL=http://host:8000/v1 FACTKIT_MODEL=<generator> VERIFIER_MODEL=<verifier, e.g. Qwen3-14B> \
//   SERPER_API_KEY=... pnpm --filter hallucination-check halluqa --real
import { mkdirSync, writeFileSync } from 'node:fs';
import { createJointCqGenerator, createLlmVerifier, detectHallucinations, evaluateDetections, type DetectionGold } from '@factkit/claim-query';
import { withCache, withRetry, type Retriever } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createOpenAICompatible } from '@factkit/openai';
import { createSerperRetriever } from '@factkit/serper';
import { createBm25Retriever, createChineseAnalyzer } from '@factkit/retrieval';
import { startLocalChatServer } from './local-chat-server.js';
import { loadHalluQaKnowledge } from './halluqa-data.js';
import { scriptedHalluQaReply } from './scripted-models.js';
import { needData, percent, readArguments } from './shared.js';

needData('halluqa', 'fever-lite');
const args = readArguments(process.argv.slice(2));
const real = args.has('real');
const limit = args.has('limit') ? Number(args.get('limit')) : Number.POSITIVE_INFINITY;
const modelFilter = args.get('models')?.split(',');

const { questions: knowledge, rows, invalid, sourceDocuments } = loadHalluQaKnowledge({ limit, ...(modelFilter ? { models: modelFilter } : {}) });
process.stderr.write(`HalluQA Knowledge: ${knowledge.size} questions (shared part of the paper's 206), ${rows.length} judged answers (${invalid} Invalid_Judge rows left out)\n`);

let retriever: Retriever;
let baseUrl: string;
let stop: (() => Promise<void>) | undefined;
let generatorModelId: string;
let verifierModelId: string;
const cacheDirectory = new URL('../out/.cache/halluqa/', import.meta.url).pathname;
if (real) {
  if (!process.env['OPENAI_BASE_URL'] || !process.env['FACTKIT_MODEL']) throw new Error('--real needs OPENAI_BASE_URL and FACTKIT_MODEL (and VERIFIER_MODEL, SERPER_API_KEY)');
  baseUrl = process.env['OPENAI_BASE_URL'];
  generatorModelId = process.env['FACTKIT_MODEL'];
  verifierModelId = process.env['VERIFIER_MODEL'] ?? generatorModelId;
  retriever = process.env['SERPER_API_KEY']
    ? createSerperRetriever({ country: 'cn', language: 'zh-cn', cache: createFileCache({ directory: `${cacheDirectory}serper` }) })
    : createBm25Retriever(sourceDocuments, { analyzer: createChineseAnalyzer() });
} else {
  const server = await startLocalChatServer(scriptedHalluQaReply);
  baseUrl = server.url;
  stop = () => server.close();
  generatorModelId = verifierModelId = 'scripted-model';
  retriever = createBm25Retriever(sourceDocuments, { analyzer: createChineseAnalyzer() });
}
const cache = createFileCache({ directory: `${cacheDirectory}${real ? 'real' : 'scripted'}` });
const connect = (model: string) => withCache(withRetry(createOpenAICompatible({ baseURL: baseUrl, ...(real ? {} : { apiKey: 'sk-scripted' }) }).languageModel(model), { maxRetries: 4 }), cache);

try {
  const started = Date.now();
  const results = await detectHallucinations({
    items: rows.map((row) => ({ id: `${row.model}#${row.question_id}`, question: row.question, answer: row.response, language: 'zh' as const })),
    generator: createJointCqGenerator({ model: connect(generatorModelId) }),
    retriever,
    verifier: createLlmVerifier({ model: connect(verifierModelId) }),
    concurrency: 8,
    onProgress: ({ completed: done, total, failed }) => {
      if (done % 250 === 0 || done === total) process.stderr.write(`  ${done}/${total} (${failed} not ok)\n`);
    },
  });
  const gold = new Map<string, DetectionGold>(rows.map((row) => [`${row.model}#${row.question_id}`, { response: row.is_hallucination === true }]));
  const evaluation = evaluateDetections(results, gold);
  const problemCounts = new Map<string, number>();
  for (const result of results) for (const problem of result.problems) problemCounts.set(problem.code, (problemCounts.get(problem.code) ?? 0) + 1);
  const r = evaluation.response;
  console.log(`\nHalluQA (${real ? 'REAL endpoint' : 'SCRIPTED local server: plumbing only, the numbers say nothing about JointCQ'}), ${rows.length} answers, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log('| setting | Acc | F1 | N unv. | Acc (verifiable) | F1 (verifiable) | N verifiable | failed |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  console.log(
    `| ${real ? generatorModelId : 'scripted'} | ${percent(r.overall.accuracy)} | ${percent(r.overall.f1)} | ${r.nUnverifiable} | ${percent(r.verifiableOnly.accuracy)} | ${percent(r.verifiableOnly.f1)} | ${r.verifiableOnly.n} | ${r.nFailed} |`,
  );
  if (evaluation.nAbstained > 0) console.log(`Abstained answers (the answer refuses or abstains; counted apart, left out of the rates): ${evaluation.nAbstained}`);
  console.log(`Parse/pipeline problems: ${[...problemCounts].map(([code, n]) => `${code} ${n}`).join(', ') || 'none'}`);
  console.log(`Claims parsed: ${results.reduce((sum, result) => sum + result.claims.length, 0)}; answers with no claims: ${results.filter((result) => result.noClaims).length}`);
  mkdirSync(new URL('../out/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`../out/halluqa-${real ? 'real' : 'scripted'}.json`, import.meta.url), JSON.stringify({ evaluation, results }, null, 1));
  if (r.nFailed > 0) {
    console.error(`INCOMPLETE: ${r.nFailed} answer(s) failed and are left out of the rates`);
    process.exitCode = 1;
  }
} finally {
  await stop?.();
}
