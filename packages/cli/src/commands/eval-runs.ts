import { InvalidArgumentError } from '@factkit/core';
import { type EvaluateRunResult, evaluateRun, pairedRandomizationTest, pairedTTest, parseTrecQrels, parseTrecRun } from '@factkit/metrics';
import { EXIT_CODES } from '../exit-codes.js';
import { buildEvalReport } from '../report/eval-report.js';
import { writeStudyReportFiles } from '../report/study-report.js';
import type { CliIo } from '../cli-io.js';
import { type CommandValues, defineCommand, integerFlag } from '../command.js';
import { assertOutputsAreNotInputs, readTextInput } from '../read-input.js';

export const EVAL_RUNS_USAGE = `usage: factkit eval --qrels qrels.txt --runs a.trec[,b.trec] [--metrics ndcg_cut_10,recall_100,map] [--resamples 9999] [--seed 0] [--json]
  Scores TREC runs with @factkit/metrics (trec_eval -c semantics: every judged query counts, a query missing from a
  run scores 0). With two runs: per measure, the paired t-test and the paired randomization (sign-flip) test of
  mean(a) − mean(b) over the judged queries.`;

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
 * paired t-test and paired randomization test over the per-query values.
 * @throws InvalidArgumentError when the two evaluations do not cover the same queries.
 */
export function compareEvaluations(a: EvaluateRunResult, b: EvaluateRunResult, options: { resamples?: number; seed?: number } = {}): RunComparison[] {
  const queries = a.evaluatedQueries;
  if (queries.length !== b.evaluatedQueries.length || queries.some((id, k) => b.evaluatedQueries[k] !== id)) {
    throw new InvalidArgumentError({ where: 'compareEvaluations', argument: 'b', message: 'must cover the same queries as a (evaluate both with completeQueries: true)' });
  }
  return a.measures
    .filter((measure) => !measure.startsWith('num_'))
    .map((measure) => {
      const x = queries.map((id) => a.perQuery[id]?.[measure] ?? 0);
      const y = queries.map((id) => b.perQuery[id]?.[measure] ?? 0);
      const t = pairedTTest(x, y);
      const r = pairedRandomizationTest(x, y, { ...(options.resamples ? { resamples: options.resamples } : {}), seed: options.seed ?? 0 });
      const meanA = x.reduce((sum, v) => sum + v, 0) / x.length;
      const meanB = y.reduce((sum, v) => sum + v, 0) / y.length;
      return { measure, meanA, meanB, difference: meanA - meanB, tTestP: t.pvalue, randomizationP: r.pvalue, queries: x.length };
    });
}

const EVAL_RUNS_OPTIONS = {
  qrels: { type: 'string' },
  runs: { type: 'string' },
  metrics: { type: 'string', default: 'ndcg_cut_10,recall_100,map' },
  resamples: { type: 'string', default: '9999' },
  seed: { type: 'string', default: '0' },
  json: { type: 'boolean', default: false },
  svg: { type: 'string' },
  html: { type: 'string' },
} as const;

/** `factkit eval --qrels … --runs a[,b]`: scores TREC run files, with paired significance for two runs. */
async function runEvalRuns(values: CommandValues<typeof EVAL_RUNS_OPTIONS>, io: CliIo): Promise<number> {
  const paths = (values.runs ?? '')
    .split(',')
    .map((path) => path.trim())
    .filter(Boolean);
  if (!values.qrels || paths.length < 1 || paths.length > 2) {
    io.stderr(`factkit eval: give --qrels and one or two --runs\n${EVAL_RUNS_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  await assertOutputsAreNotInputs(
    'eval',
    [
      { flag: '--svg', path: values.svg },
      { flag: '--html', path: values.html },
    ],
    [{ flag: '--qrels', path: values.qrels }, ...paths.map((path) => ({ flag: '--runs', path }))],
  );
  const resamples = integerFlag('eval', 'resamples', values.resamples);
  const seed = integerFlag('eval', 'seed', values.seed, Number.MIN_SAFE_INTEGER);
  const metrics = values.metrics
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  // The CLI's text reader (BOM stripped; missing, binary, empty or oversized files are exit 2), then the strict TREC
  // parsers (a malformed row is a corrupt file naming file:line, exit 2: a dropped judgement would change every score).
  const readTrec = async (path: string, flag: string) => {
    const text = await readTextInput(path, { command: 'eval', flag });
    if (text.trim() === '') throw new InvalidArgumentError({ where: 'factkit eval', argument: flag, message: `"${path}" is empty` });
    return text;
  };
  const qrels = parseTrecQrels(await readTrec(values.qrels, '--qrels'), { source: values.qrels });
  const evaluations = await Promise.all(paths.map(async (path) => evaluateRun(qrels, parseTrecRun(await readTrec(path, '--runs'), { source: path }), { metrics, completeQueries: true })));
  const comparison = evaluations.length === 2 ? compareEvaluations(evaluations[0]!, evaluations[1]!, { resamples, seed }) : undefined;
  const lines: string[] = [];
  const measures = evaluations[0]!.measures;
  lines.push(`| run | queries | ${measures.join(' | ')} |`, `|---|---:|${measures.map(() => '---:').join('|')}|`);
  paths.forEach((path, k) => lines.push(`| ${path} | ${evaluations[k]!.evaluatedQueries.length} | ${measures.map((m) => (evaluations[k]!.aggregate[m] ?? Number.NaN).toFixed(4)).join(' | ')} |`));
  if (comparison) {
    lines.push(
      '',
      `Paired tests, a = ${paths[0]} vs b = ${paths[1]} (${comparison[0]?.queries ?? 0} queries; randomization: ${resamples} sign flips, seed ${seed}, exact when 2^n ≤ resamples)`,
      '',
      '| measure | a | b | a − b | t-test p | randomization p |',
      '|---|---:|---:|---:|---:|---:|',
    );
    for (const row of comparison)
      lines.push(`| ${row.measure} | ${row.meanA.toFixed(4)} | ${row.meanB.toFixed(4)} | ${row.difference >= 0 ? '+' : ''}${row.difference.toFixed(4)} | ${row.tTestP.toFixed(4)} | ${row.randomizationP.toFixed(4)} |`);
  }
  const markdown = `${lines.join('\n')}\n`;
  if (values.svg || values.html) await writeStudyReportFiles({ svg: values.svg, html: values.html }, buildEvalReport({ qrels: values.qrels, paths, evaluations, comparison, resamples, seed, markdown }));
  if (values.json) {
    io.stdout(`${JSON.stringify({ qrels: values.qrels, runs: paths.map((path, k) => ({ path, queries: evaluations[k]!.evaluatedQueries.length, aggregate: evaluations[k]!.aggregate })), ...(comparison ? { comparison } : {}) }, null, 2)}\n`);
    return EXIT_CODES.ok;
  }
  io.stdout(markdown);
  return EXIT_CODES.ok;
}

export const evalRunsCommand = defineCommand({
  name: 'eval-runs',
  summary: 'TREC run files scored with paired significance (factkit eval --qrels … --runs …)',
  usage: EVAL_RUNS_USAGE,
  options: EVAL_RUNS_OPTIONS,
  run: runEvalRuns,
});
