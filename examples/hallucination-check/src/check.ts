// Checks one answer for factual hallucinations and prints the whole chain (claims, queries, evidence, verdicts,
// sentence and response labels); writes the JSON result too.
//
// Offline (default): LLM-free drafter baseline + BM25 over the local corpus + lexical NLI verifier.
//   pnpm --filter hallucination-check check -- --question "..." --answer "..." [--out out/check.json]
// Paper setting: set OPENAI_BASE_URL (+ OPENAI_API_KEY, FACTKIT_MODEL) for the JointCQ generator and LLM verifier, and
// SERPER_API_KEY for web search (see README).
import { mkdirSync, writeFileSync } from 'node:fs';
import { detectHallucinations } from '@factkit/claim-query';
import { formatDetection } from './format-detection.js';
import { createOfflineComponents } from './offline-components.js';
import { readArguments } from './shared.js';

const args = readArguments(process.argv.slice(2));
const question = args.get('question') ?? 'Which company released the film Soul Food?';
const answer = args.get('answer') ?? 'Soul Food was released by Fox 2000 Pictures. It is a 2005 science fiction film.';
const outPath = args.get('out') ?? 'out/check.json';

const components = createOfflineComponents();
process.stderr.write(`offline mode: ${components.generator.id}, BM25 over ${components.corpusSize} local passages, ${components.verifier.id}\n`);
const [result] = await detectHallucinations({ items: [{ id: 'input', question, answer }], ...components });
if (!result) throw new Error('no result');
console.log(formatDetection(result));
mkdirSync(new URL('../out/', import.meta.url), { recursive: true });
writeFileSync(new URL(`../${outPath}`, import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
process.stderr.write(`\nJSON written to examples/hallucination-check/${outPath}\n`);
if (result.status !== 'ok') process.exitCode = 1;
