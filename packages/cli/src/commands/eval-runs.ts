import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';
import { InvalidArgumentError } from '@factkit/core';
import { type EvaluateRunResult, PAIRED_TESTS, type PairedTestName, compareRuns, evaluateRun, parseQrels, parseRun } from '@factkit/metrics';
import type { CliIo } from '../cli-io.js';
import { type CommandValues, defineCommand, integerFlag, numberFlag } from '../command.js';
import { buildComparisonTable, renderComparisonLatex, renderComparisonMarkdown } from '../comparison-table.js';
import { EXIT_CODES } from '../exit-codes.js';
import { assertOutputsAreNotInputs, readTextInput } from '../read-input.js';
import { buildEvalReport } from '../report/eval-report.js';
import { comparisonStudyTable, renderRunsTablePage } from '../report/runs-table.js';
import { writeStudyReportFiles } from '../report/study-report.js';

export const EVAL_RUNS_USAGE = `usage: factkit eval --qrels <qrels> --runs a.trec,b.trec[,c.trec,…] [--names bm25,dense,…] [--baseline <name|index>]
                    [--test t-test|randomization] [--alpha 0.05] [--metrics ndcg_cut_10,recall_100,map]
                    [--format md|latex|html] [--out table.md|.tex|.html] [--resamples 9999] [--seed 0] [--json]
                    [--svg chart.svg] [--html page.html]
  Scores any number of TREC (or pytrec_eval JSON) runs with @factkit/metrics (trec_eval -c semantics: every judged
  query counts, a query missing from a run scores 0) and, with two or more, compares them as ranx's compare does:
  per measure, a paired test (Student's t by default, or the sign-flip randomization test) of every system against
  the baseline (the first run unless --baseline) and of every pair, each family Holm–Bonferroni corrected per measure.
  The table shows mean ± SE, superscript letters of the systems a result is significantly better than, and † for a
  significant difference from the baseline; then the tests with raw and adjusted p-values. --format picks Markdown
  (default), LaTeX (booktabs) or HTML; --out writes it to a file (format from the extension unless --format).
  --qrels may be TREC 4-column, BEIR TSV or pytrec_eval JSON (detected from the content, plain or gzip).
  Names default to the run files' base names.`;

/** One measure's comparison of run a against run b over the same queries. */
export interface RunComparison {
  readonly measure: string;
  readonly meanA: number;
  readonly meanB: number;
  readonly difference: number;
  readonly tTestP: number;
  readonly randomizationP: number;
  readonly queries: number;
}

/**
 * Paired significance of two evaluations of the same qrels (`completeQueries: true`): per measure, @factkit/metrics'
 * paired t-test and paired randomization test over the per-query values (`compareRuns` with two systems; a t-test
 * SciPy cannot compute, every difference 0, is NaN here as in SciPy).
 * @throws InvalidArgumentError when the two evaluations do not cover the same queries.
 */
export function compareEvaluations(a: EvaluateRunResult, b: EvaluateRunResult, options: { resamples?: number; seed?: number } = {}): RunComparison[] {
  const systems = [
    { name: 'a', evaluation: a },
    { name: 'b', evaluation: b },
  ];
  let t: ReturnType<typeof compareRuns>;
  try {
    t = compareRuns(systems, { baseline: 1 });
  } catch (cause) {
    throw new InvalidArgumentError({ where: 'compareEvaluations', argument: 'b', message: 'must cover the same queries as a (evaluate both with completeQueries: true)', cause });
  }
  const r = compareRuns(systems, { baseline: 1, test: 'randomization', ...(options.resamples ? { resamples: options.resamples } : {}), seed: options.seed ?? 0 });
  return t.measures.map((measure, index) => {
    const meanA = t.systems[0]!.scores[measure]!.mean ?? Number.NaN;
    const meanB = t.systems[1]!.scores[measure]!.mean ?? Number.NaN;
    return { measure, meanA, meanB, difference: meanA - meanB, tTestP: t.againstBaseline[index]!.pvalue ?? Number.NaN, randomizationP: r.againstBaseline[index]!.pvalue ?? Number.NaN, queries: t.queries.length };
  });
}

const EVAL_RUNS_OPTIONS = {
  qrels: { type: 'string' },
  runs: { type: 'string' },
  names: { type: 'string' },
  baseline: { type: 'string' },
  test: { type: 'string', default: 't-test' },
  alpha: { type: 'string', default: '0.05' },
  metrics: { type: 'string', default: 'ndcg_cut_10,recall_100,map' },
  resamples: { type: 'string', default: '9999' },
  seed: { type: 'string', default: '0' },
  format: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean', default: false },
  svg: { type: 'string' },
  html: { type: 'string' },
} as const;

const FORMATS = ['md', 'latex', 'html'] as const;
type TableFormat = (typeof FORMATS)[number];
const EXTENSIONS: Readonly<Record<string, TableFormat>> = { '.md': 'md', '.markdown': 'md', '.tex': 'latex', '.latex': 'latex', '.html': 'html', '.htm': 'html' };

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** `factkit eval --qrels … --runs a,b,c,…`: scores run files and compares any number of them. */
async function runEvalRuns(values: CommandValues<typeof EVAL_RUNS_OPTIONS>, io: CliIo): Promise<number> {
  const where = 'factkit eval';
  const paths = list(values.runs);
  if (!values.qrels || paths.length < 1) {
    io.stderr(`factkit eval: give --qrels and --runs (one or more run files, comma-separated)\n${EVAL_RUNS_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  await assertOutputsAreNotInputs(
    'eval',
    [
      { flag: '--svg', path: values.svg },
      { flag: '--html', path: values.html },
      { flag: '--out', path: values.out },
    ],
    [{ flag: '--qrels', path: values.qrels }, ...paths.map((path) => ({ flag: '--runs', path }))],
  );
  const names = values.names === undefined ? paths.map((path) => basename(path).replace(/\.(trec|run|txt|json)(\.gz)?$/i, '')) : list(values.names);
  if (names.length !== paths.length) throw new InvalidArgumentError({ where, argument: '--names', message: `must name each of the ${paths.length} runs (got ${names.length} names)` });
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw new InvalidArgumentError({ where, argument: values.names === undefined ? '--runs' : '--names', message: `names "${repeated}" twice; give --names to tell the runs apart` });
  let baseline = 0;
  if (values.baseline !== undefined) {
    baseline = names.indexOf(values.baseline);
    if (baseline < 0 && /^\d+$/.test(values.baseline) && Number(values.baseline) < names.length) baseline = Number(values.baseline);
    if (baseline < 0) throw new InvalidArgumentError({ where, argument: '--baseline', message: `must be one of ${names.join(', ')} or an index 0..${names.length - 1} (got "${values.baseline}")` });
  }
  if (!PAIRED_TESTS.includes(values.test as PairedTestName)) throw new InvalidArgumentError({ where, argument: '--test', message: `must be one of ${PAIRED_TESTS.join(', ')} (got "${values.test}")` });
  const alpha = numberFlag('eval', 'alpha', values.alpha);
  if (!(alpha > 0 && alpha < 1)) throw new InvalidArgumentError({ where, argument: '--alpha', message: `must be between 0 and 1 (got "${values.alpha}")` });
  const resamples = integerFlag('eval', 'resamples', values.resamples);
  const seed = integerFlag('eval', 'seed', values.seed, Number.MIN_SAFE_INTEGER);
  let format: TableFormat = 'md';
  if (values.format !== undefined) {
    if (!FORMATS.includes(values.format as TableFormat)) throw new InvalidArgumentError({ where, argument: '--format', message: `must be one of ${FORMATS.join(', ')} (got "${values.format}")` });
    format = values.format as TableFormat;
  } else if (values.out !== undefined) {
    const byExtension = EXTENSIONS[extname(values.out).toLowerCase()];
    if (!byExtension) throw new InvalidArgumentError({ where, argument: '--out', message: `has no known extension (.md, .tex, .html); give --format (got "${values.out}")` });
    format = byExtension;
  }
  // The CLI's text reader (BOM stripped, gzip opened; missing, binary, empty or oversized files are exit 2), then the
  // strict parsers (a malformed row is a corrupt file naming file:line, exit 2: a dropped judgement would change every score).
  const readNonEmpty = async (path: string, flag: string) => {
    const text = await readTextInput(path, { command: 'eval', flag });
    if (text.trim() === '') throw new InvalidArgumentError({ where, argument: flag, message: `"${path}" is empty` });
    return text;
  };
  const qrels = parseQrels(await readNonEmpty(values.qrels, '--qrels'), { source: values.qrels });
  const metrics = list(values.metrics);
  const evaluations = await Promise.all(paths.map(async (path) => evaluateRun(qrels, parseRun(await readNonEmpty(path, '--runs'), { source: path }), { metrics, completeQueries: true })));
  const measures = evaluations[0]!.measures;
  const systems = names.map((name, index) => ({ name, evaluation: evaluations[index]! }));
  const comparison = systems.length >= 2 ? compareRuns(systems, { test: values.test as PairedTestName, baseline, alpha, resamples, seed }) : undefined;
  let text: string;
  if (comparison) {
    const table = buildComparisonTable(comparison, { title: `Runs scored against ${basename(values.qrels)}` });
    text = format === 'latex' ? renderComparisonLatex(table) : format === 'html' ? renderRunsTablePage(table, `factkit eval: ${names.join(', ')}`) : renderComparisonMarkdown(table);
  } else {
    const only = evaluations[0]!;
    text = `| run | queries | ${measures.join(' | ')} |\n|---|---:|${measures.map(() => '---:').join('|')}|\n| ${names[0]} | ${only.evaluatedQueries.length} | ${measures.map((m) => (only.evaluatedQueries.length === 0 ? 'n/a' : (only.aggregate[m] ?? Number.NaN).toFixed(4))).join(' | ')} |\n`;
  }
  if (values.svg || values.html) {
    // The study page: runs table, chart and (two runs) both paired tests; with two or more runs also the Holm-corrected
    // comparison table.
    const page = buildEvalReport({
      qrels: values.qrels,
      paths,
      evaluations,
      comparison: evaluations.length === 2 ? compareEvaluations(evaluations[0]!, evaluations[1]!, { resamples, seed }) : undefined,
      resamples,
      seed,
      markdown: text,
    });
    await writeStudyReportFiles({ svg: values.svg, html: values.html }, comparison ? { ...page, tables: [...(page.tables ?? []), comparisonStudyTable(buildComparisonTable(comparison))] } : page);
  }
  if (values.out) {
    await mkdir(dirname(resolve(values.out)), { recursive: true });
    await writeFile(values.out, text);
  }
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ qrels: values.qrels, runs: paths.map((path, k) => ({ path, name: names[k], queries: evaluations[k]!.evaluatedQueries.length, aggregate: evaluations[k]!.aggregate })), ...(comparison ? { comparison } : {}) }, null, 2)}\n`,
    );
  } else if (!values.out) io.stdout(text);
  else io.stdout(`wrote the ${format} table of ${names.length} runs to ${values.out}\n`);
  return EXIT_CODES.ok;
}

export const evalRunsCommand = defineCommand({
  name: 'eval-runs',
  summary: 'TREC run files scored and compared with paired tests and Holm–Bonferroni (factkit eval --qrels … --runs …)',
  usage: EVAL_RUNS_USAGE,
  options: EVAL_RUNS_OPTIONS,
  run: runEvalRuns,
});
