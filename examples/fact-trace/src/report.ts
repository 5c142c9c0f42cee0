// The report of one corpus: Table 1's rows, the cost per query beside brute force, and their Markdown.
import type { TraceMethodRun } from '@factkit/fasttrack';
import type { StudyOptions } from './study.js';

/** One row of Table 1: macro P/R/F1 over the queries scored (absent when none could be scored). */
export interface TableRow {
  readonly method: string;
  readonly f1?: number;
  readonly precision?: number;
  readonly recall?: number;
  /** The shared top-k cutoff of a ranking method (best mean F1 over k). */
  readonly k?: number;
  readonly queries: number;
}

export interface CostRow {
  readonly method: string;
  readonly corpus: number;
  readonly meanCandidates: number;
  readonly medianCandidates: number;
  readonly meanLlmCalls: number;
  readonly bruteForceLlmCalls: number;
  readonly meanTokens: number;
  readonly estimatedBruteForceTokens?: number;
  readonly meanLatencyMs: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? 0 : sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const mean = (values: readonly number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);
const fixed = (value: number | undefined, digits = 3) => (value === undefined ? '—' : value.toFixed(digits));

/** The per-query cost of a FastTrack row beside brute force. */
export function costOf(method: TraceMethodRun, corpus: number): CostRow {
  const results = method.perStatement.flatMap((run) => (run.result ? [run.result] : []));
  const bruteForceTokens = results.flatMap((result) => (result.cost.bruteForce.estimatedTokens === undefined ? [] : [result.cost.bruteForce.estimatedTokens]));
  return {
    method: method.method,
    corpus,
    meanCandidates: mean(results.map((result) => result.cost.candidatesJudged)),
    medianCandidates: median(results.map((result) => result.cost.candidatesJudged)),
    meanLlmCalls: mean(results.map((result) => result.cost.llmCalls)),
    bruteForceLlmCalls: results.at(-1)?.cost.bruteForce.llmCalls ?? 0,
    meanTokens: mean(results.map((result) => result.cost.usage.totalTokens)),
    ...(bruteForceTokens.length ? { estimatedBruteForceTokens: mean(bruteForceTokens) } : {}),
    meanLatencyMs: mean(method.perStatement.flatMap((run) => (run.latencyMs === undefined ? [] : [run.latencyMs]))),
  };
}

export function formatMarkdown(options: StudyOptions, rows: readonly TableRow[], costs: readonly CostRow[], excluded: Record<string, string[]>, timings: Record<string, number>): string {
  const { benchmark } = options;
  return [
    `## ${options.name}: ${benchmark.documents.length.toLocaleString('en')} documents, ${benchmark.queries.length} queries`,
    '',
    `Corpus: ${Object.entries(benchmark.stats)
      .map(([key, value]) => `${key} ${value}`)
      .join(', ')}.`,
    '',
    '| method | F1 | Precision | Recall | k | queries |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.method} | ${fixed(row.f1)} | ${fixed(row.precision)} | ${fixed(row.recall)} | ${row.k ?? '—'} | ${row.queries} |`),
    '',
    '| method | corpus | candidates judged / query (mean, median) | share of corpus | LLM calls / query | brute-force LLM calls | tokens / query | est. brute-force tokens | latency / query (ms) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...costs.map(
      (cost) =>
        `| ${cost.method} | ${cost.corpus} | ${cost.meanCandidates.toFixed(1)}, ${cost.medianCandidates} | ${((100 * cost.meanCandidates) / cost.corpus).toFixed(2)}% | ${cost.meanLlmCalls.toFixed(2)} | ${cost.bruteForceLlmCalls} | ${cost.meanTokens.toFixed(0)} | ${fixed(cost.estimatedBruteForceTokens, 0)} | ${cost.meanLatencyMs.toFixed(1)} |`,
    ),
    '',
    Object.keys(excluded).length ? `Queries left out (judge failures): ${JSON.stringify(excluded)}` : 'No query was left out (every candidate was judged).',
    '',
    `Timings (ms): ${Object.entries(timings)
      .map(([key, value]) => `${key} ${value.toFixed(0)}`)
      .join('; ')}.`,
    '',
  ].join('\n');
}
