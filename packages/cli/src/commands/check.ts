import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { QaItem } from '@factkit/claim-query';
import { InvalidArgumentError } from '@factkit/core';
import { type CheckEndpoint, DEFAULT_CHECK_CORPUS, checkAnswers } from '../check/run-check.js';
import { formatDetectionText } from '../check/format-detection-text.js';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgress } from '../progress.js';
import { renderCheckReport } from '../report/check-report.js';
import type { CliIo } from '../run-cli.js';
import { readInputFile } from '../read-input-file.js';

export const CHECK_USAGE = `usage: factkit check --question <text> --answer <text> | --input <qa.jsonl>
                     [--corpus corpus.jsonl] [--top-k 10] [--concurrency 4]
                     [--out result.json] [--html report.html | --no-html] [--json]
                     [--base-url URL --model ID [--verifier-model ID] [--api-key KEY] [--cache-dir DIR] | --offline]
  Checks answers for factual hallucinations (JointCQ, @factkit/claim-query) against a local JSONL corpus
  (default: the shipped FEVER-lite evidence sentences). Offline by default: LLM-free drafter baseline + BM25 +
  lexical NLI verifier. With --base-url (or OPENAI_BASE_URL) and --model (or FACTKIT_MODEL): the JointCQ
  generator and the LLM verifier on that OpenAI-compatible endpoint (key: --api-key or OPENAI_API_KEY), calls
  cached in --cache-dir (default .factkit-cache/check) so an interrupted run resumes.
  --input lines: {"id"?: string, "question": string, "answer": string}.
  Writes one self-contained HTML report (default: next to --out, else ./factkit-check.html).`;

function positiveInteger(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError({ where: 'factkit check', argument: `--${name}`, message: `must be a positive integer (got "${text}")` });
  return value;
}

/** Reads `{"id"?, "question", "answer"}` lines; a bad line is reported, never fatal. */
export async function readQaJsonl(path: string): Promise<{ items: QaItem[]; problems: { line: number; code: string; message: string }[] }> {
  const text = await readInputFile(path, { command: 'check', flag: '--input' });
  const items: QaItem[] = [];
  const problems: { line: number; code: string; message: string }[] = [];
  text.split('\n').forEach((line, position) => {
    if (line.trim() === '') return;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      problems.push({ line: position + 1, code: 'bad-json', message: 'not valid JSON' });
      return;
    }
    if (typeof row !== 'object' || row === null || typeof row['answer'] !== 'string') {
      problems.push({ line: position + 1, code: 'missing-answer', message: 'needs a string "answer"' });
      return;
    }
    const id = typeof row['id'] === 'string' || typeof row['id'] === 'number' ? String(row['id']) : `line-${position + 1}`;
    items.push({ id, question: typeof row['question'] === 'string' ? row['question'] : '', answer: row['answer'] });
  });
  return { items, problems };
}

/** `factkit check`: parses, wires @factkit/claim-query's detector, prints and writes the HTML report. Returns the exit code. */
export async function runCheckCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: args.filter((argument) => argument !== '--'),
    options: {
      question: { type: 'string' },
      answer: { type: 'string' },
      input: { type: 'string' },
      corpus: { type: 'string' },
      'top-k': { type: 'string', default: '10' },
      concurrency: { type: 'string', default: '4' },
      out: { type: 'string' },
      html: { type: 'string' },
      'no-html': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      model: { type: 'string' },
      'verifier-model': { type: 'string' },
      'cache-dir': { type: 'string' },
      offline: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    io.stdout(`${CHECK_USAGE}\n`);
    return EXIT_CODES.ok;
  }
  if ((values.input === undefined) === (values.answer === undefined)) {
    io.stderr(`factkit check: give either --answer (with --question) or --input <qa.jsonl>\n${CHECK_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const env = io.env ?? {};
  let endpoint: CheckEndpoint | undefined;
  const baseURL = values['base-url'] ?? env['OPENAI_BASE_URL'];
  if (!values.offline && baseURL) {
    const model = values.model ?? env['FACTKIT_MODEL'];
    if (!model) throw new InvalidArgumentError({ where: 'factkit check', argument: '--model', message: 'is needed with an endpoint (or set FACTKIT_MODEL; --offline ignores OPENAI_BASE_URL)' });
    endpoint = {
      baseURL,
      model,
      ...(values['verifier-model'] ? { verifierModel: values['verifier-model'] } : {}),
      ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
      cacheDirectory: resolve(values['cache-dir'] ?? '.factkit-cache/check'),
    };
  }
  const input = values.input ? await readQaJsonl(values.input) : { items: [{ id: 'answer', question: values.question ?? '', answer: values.answer ?? '' }], problems: [] };
  for (const problem of input.problems.slice(0, 20)) io.stderr(`warning: ${values.input}:${problem.line}: ${problem.code}: ${problem.message}\n`);
  if (input.items.length === 0) {
    io.stderr(`factkit check: no checkable line in ${values.input ?? 'the input'}\n`);
    return EXIT_CODES.badInput;
  }
  const progress = createProgress(io, 'check');
  const corpus = values.corpus ?? DEFAULT_CHECK_CORPUS;
  const started = Date.now();
  const { results, corpusSize, problems } = await checkAnswers({
    items: input.items,
    corpus,
    topK: positiveInteger('top-k', values['top-k']),
    concurrency: positiveInteger('concurrency', values.concurrency),
    ...(endpoint ? { endpoint } : {}),
    ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}),
    onProgress: ({ completed, total, failed = 0 }) => progress.update(completed, total, failed > 0 ? `${failed} failed` : undefined),
  });
  progress.end();
  for (const problem of problems.slice(0, 5)) io.stderr(`warning: corpus: ${problem.message}\n`);
  const corpusName = values.corpus ?? 'shipped FEVER-lite evidence corpus';
  if (values.out) {
    await mkdir(dirname(resolve(values.out)), { recursive: true });
    await writeFile(values.out, `${JSON.stringify(results, null, 2)}\n`);
  }
  let htmlPath: string | undefined;
  if (!values['no-html']) {
    htmlPath = values.html ?? (values.out ? `${values.out.slice(0, values.out.length - extname(values.out).length)}.html` : 'factkit-check.html');
    await mkdir(dirname(resolve(htmlPath)), { recursive: true });
    await writeFile(htmlPath, renderCheckReport(results, { corpus: corpusName, inputProblems: input.problems }));
  }
  const incomplete = results.filter((result) => result.status !== 'ok');
  if (values.json) {
    io.stdout(`${JSON.stringify({ results, inputProblems: input.problems, corpus: corpusName, corpusSize, ...(htmlPath ? { html: htmlPath } : {}) }, null, 2)}\n`);
  } else {
    io.stdout(`${results.map((result) => formatDetectionText(result)).join('\n')}\n`);
    const counts = new Map<string, number>();
    for (const result of results) counts.set(result.responseLabel ?? `undecided (${result.failedStage ?? result.status})`, (counts.get(result.responseLabel ?? `undecided (${result.failedStage ?? result.status})`) ?? 0) + 1);
    io.stdout(`${results.length} answer(s) checked against ${corpusName} (${corpusSize} passages) in ${((Date.now() - started) / 1000).toFixed(1)} s: ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
    if (!endpoint) io.stdout('offline: LLM-free drafter baseline + BM25 + lexical NLI verifier (baselines, not the paper\'s JointCQ model; pass --base-url/--model for it)\n');
    if (htmlPath) io.stdout(`report: ${resolve(htmlPath)}\n`);
  }
  if (incomplete.length > 0 || input.problems.length > 0) {
    io.stderr(`factkit check: ${incomplete.length} answer(s) undecided (failed or incomplete model calls) and ${input.problems.length} input line(s) skipped; re-run to resume from the call cache\n`);
    return EXIT_CODES.partialFailure;
  }
  return EXIT_CODES.ok;
}
