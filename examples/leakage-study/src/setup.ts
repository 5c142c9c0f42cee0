// Shared wiring of the scripts: the data root, the chat model(s) from the environment, defaults and exit codes.
import { resolve } from 'node:path';
import { InvalidArgumentError } from '@factkit/core';
import { dataset as dataRootDataset, type DatasetName, missingDatasetMessage } from '@factkit/test-utils/data';
import { EXIT_CODES, type MethodName, type StudyIo, type StudyOptions, type StudyOutcome } from './run.js';

/** The dataset's folder in the data root ($FACTKIT_DATA, or shared/data beside the checkout). */
export function dataFolder(name: DatasetName): string {
  const folder = dataRootDataset(name);
  if (folder === undefined) throw new InvalidArgumentError({ where: 'leakage-study', argument: 'FACTKIT_DATA', message: missingDatasetMessage(name, { flag: 'FACTKIT_DATA=<root>' }) });
  return folder;
}

/** The first command-line argument as a claim limit (all claims without it). */
export function limitFromArgs(argv: readonly string[] = process.argv.slice(2)): number {
  const value = argv.find((arg) => arg !== '--');
  if (value === undefined) return Number.POSITIVE_INFINITY;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidArgumentError({ where: 'leakage-study', argument: 'limit', message: `must be a positive integer (got ${value})` });
  return limit;
}

/** True when OPENAI_BASE_URL and/or OPENAI_API_KEY name an OpenAI-compatible endpoint. */
export const hasEndpoint = (env: NodeJS.ProcessEnv = process.env): boolean => Boolean(env['OPENAI_BASE_URL'] || env['OPENAI_API_KEY']);

/** Everything but the dataset: offline BM25 vs RM3, plus Query2doc and HyDE when an endpoint is set; the paper's R = 8 and k = 5, 10. */
export function studyDefaults(name: string, command: string, env: NodeJS.ProcessEnv = process.env): Omit<StudyOptions, 'dataset'> {
  const methods: MethodName[] = hasEndpoint(env) ? ['rm3', 'query2doc', 'hyde'] : ['rm3'];
  return {
    methods,
    modelNames: [env['FACTKIT_MODEL'] ?? 'gpt-4o-mini'],
    nli: 'feature',
    repeats: 8,
    ks: [5, 10],
    concurrency: 4,
    verdicts: false,
    maxFailures: 0,
    // pnpm runs the script in the package folder; INIT_CWD is where the user typed the command.
    outDirectory: resolve(env['INIT_CWD'] ?? process.cwd(), 'leakage-study-output', name),
    cacheDirectory: resolve(process.cwd(), '.factkit-cache', 'leakage-study'),
    command,
  };
}

/** Runs one study as a script: progress on stderr, Ctrl-C resumable from the cache, the exit code of the outcome. */
export async function runScript(run: (io: StudyIo) => Promise<StudyOutcome>): Promise<void> {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new Error('interrupted (SIGINT); finished calls are cached, rerun to resume')));
  try {
    const outcome = await run({ env: process.env, log: (text) => process.stderr.write(text), abortSignal: controller.signal });
    if (outcome.summary) process.stderr.write(`${outcome.summary}\n`);
    process.exitCode = outcome.exitCode;
  } catch (error) {
    process.stderr.write(`leakage-study: ${error instanceof Error ? error.message : String(error)}\n`);
    const badInput = InvalidArgumentError.isInstance(error) || String((error as { code?: unknown } | null)?.code ?? '').startsWith('ERR_PARSE_ARGS');
    process.exitCode = controller.signal.aborted ? EXIT_CODES.interrupted : badInput ? EXIT_CODES.badInput : EXIT_CODES.error;
  }
}
