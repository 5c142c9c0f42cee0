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
import {
  buildTrainingData,
  createTwoStepGenerator,
  draftClaimsAndQueries,
  extractKeyphrases,
  toChatJsonl,
  type ClaimExample,
  type QueryExample,
} from '@factkit/claim-query';
import { withCache, withRetry } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createGloveEmbedder } from '@factkit/glove';
import { createOpenAICompatible } from '@factkit/openai';
import { composeFeverResponses, type FeverClaim } from './fever-compose.js';
import { startLocalChatServer } from './local-chat-server.js';
import { needData, readArguments, readJsonl } from './shared.js';

// Hand-written in-context examples (the paper writes its own; these follow its Figure 2 and Table 10 examples).
const CLAIM_EXAMPLES: Record<'en' | 'zh', ClaimExample[]> = {
  en: [
    { question: 'How long did it take to complete the construction of the Acqua Felice aqueduct?', answer: 'The Acqua Felice aqueduct was completed in 1586, after 27 years of construction.', claims: ['The Acqua Felice aqueduct was completed in 1586.', 'The construction of the Acqua Felice aqueduct took 27 years.'] },
    { question: 'Where did Judas Iscariot lead the armed guard to arrest Jesus?', answer: 'In the Garden of Gethsemane.', claims: ['Judas Iscariot led the armed guard to arrest Jesus in the Garden of Gethsemane.'] },
    { question: 'What is your favourite colour?', answer: 'I like blue the most.', claims: [] },
    { question: 'When was the railway line beyond Dennington to Port Fairy closed?', answer: 'It was closed on 14 December 1982.', claims: ['The railway line from Dennington to Port Fairy was closed on 14 December 1982.'] },
  ],
  zh: [
    { question: '鲁迅是哪一年出生的？', answer: '鲁迅出生于1881年，原名周树人。', claims: ['鲁迅出生于1881年。', '鲁迅原名周树人。'] },
    { question: '你喜欢什么颜色？', answer: '我最喜欢蓝色。', claims: [] },
    { question: '长江流经哪些省份？', answer: '长江发源于青海省，最终注入东海。', claims: ['长江发源于青海省。', '长江最终注入东海。'] },
  ],
};
const QUERY_EXAMPLES: Record<'en' | 'zh', QueryExample[]> = {
  en: [
    { claim: 'The Acqua Felice aqueduct was completed in 1586.', query: 'When was the Acqua Felice aqueduct completed?' },
    { claim: 'The construction of the Acqua Felice aqueduct took 27 years.', query: 'How long did it take to construct the Acqua Felice aqueduct?' },
    { claim: 'Judas Iscariot led the armed guard to arrest Jesus in the Garden of Gethsemane.', query: 'Where did Judas Iscariot lead the guard to arrest Jesus?' },
  ],
  zh: [
    { claim: '鲁迅出生于1881年。', query: '鲁迅出生年份' },
    { claim: '长江发源于青海省。', query: '长江的发源地在哪里' },
    { claim: '鲁迅原名周树人。', query: '鲁迅的原名是什么' },
  ],
};

function scripted(prompt: string): string {
  if (/\[(Claims|陈述)\]$/u.test(prompt)) {
    const zh = prompt.endsWith('[陈述]');
    const question = prompt.split(zh ? '[问题]\n' : '[Question]\n').at(-1)!.split('\n')[0]!;
    const answer = prompt.split(zh ? '[回答]\n' : '[Answer]\n').at(-1)!.replace(/\n\[(Claims|陈述)\]$/u, '');
    const claims = draftClaimsAndQueries({ question, answer, language: zh ? 'zh' : 'en' }).pairs.map((pair) => pair.claim);
    return claims.length > 0 ? claims.join('\n') : zh ? '无陈述' : 'No claims.';
  }
  if (/\[(Query|查询)\]$/u.test(prompt)) {
    const claim = prompt.split(/\[Claim\]\n|\[陈述\]\n/u).at(-1)!.replace(/\n\[(Query|查询)\]$/u, '');
    return /[\u4e00-\u9fff]/u.test(claim) ? claim.replace(/[。，]/gu, '') : extractKeyphrases(claim).join(' ') || claim;
  }
  const zh = prompt.includes('### 评估标准');
  const yes = zh ? '是' : 'Yes';
  const no = zh ? '否' : 'No';
  if (prompt.includes('Decontextualization:') || prompt.includes('去上下文文化：')) {
    const claim = prompt.split(/\[Claim\(s\)\]\n|\[陈述\]\n/u).at(-1)!;
    return /^(It|He|She|They|This|它|他|她|该)/u.test(claim) ? no : yes;
  }
  if (prompt.includes('Conciseness:') || prompt.includes('简洁性：')) {
    const query = prompt.split(/\[Query\]\n|\[查询\]\n/u).at(-1)!;
    return query.split(/\s+/u).length > 12 || query.length > 40 ? no : yes;
  }
  return yes;
}

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

const server = real ? undefined : await startLocalChatServer((prompt) => scripted(prompt));
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
    onProgress: ({ completed: done, total: all, passed }) => process.stderr.write(`  ${done}/${all} QA pairs, ${passed} passed all criteria\n`),
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
