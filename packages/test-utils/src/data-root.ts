// The data root: where factkit's tests, benches and examples read public evaluation data in place. The repository
// holds none of it (other people's data under their own licences). Node only; no vitest import, so examples can use it,
// and no @factkit/core import, so core's own tests can import this file (core cannot depend on test-utils: a cycle).
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The environment variable naming the data root. */
export const DATA_ROOT_VARIABLE = 'FACTKIT_DATA';

/** What a dataset is and where it is published (for the one-line "needs …" message). */
export interface DatasetInfo {
  readonly title: string;
  readonly publishedAt: string;
}

/** The datasets the project reads from the data root (folder name → description); same layout as the shared data folder. */
export const DATASETS = {
  scifact: { title: 'BEIR SciFact', publishedAt: 'https://github.com/allenai/scifact, BEIR layout: https://github.com/beir-cellar/beir' },
  'fever-lite': { title: 'FEVER-lite (FEVER claims with gold Wikipedia evidence)', publishedAt: 'https://github.com/athnlp/athnlp-labs, FEVER: https://fever.ai' },
  averitec: { title: 'AVeriTeC dev', publishedAt: 'https://github.com/MichSchli/AVeriTeC' },
  'climate-fever': { title: 'Climate-FEVER', publishedAt: 'https://github.com/tdiggelm/climate-fever-dataset' },
  halluqa: { title: 'HalluQA', publishedAt: 'https://github.com/OpenMOSS/HalluQA' },
  'vitaminc-sample': { title: 'a VitaminC sample', publishedAt: 'https://github.com/TalSchuster/VitaminC' },
  'mnli-sample': { title: 'a MultiNLI sample', publishedAt: 'https://cims.nyu.edu/~sbowman/multinli/' },
  golden: { title: 'golden outputs of the reference metric implementations', publishedAt: 'golden/README.md of the shared data root' },
} as const satisfies Record<string, DatasetInfo>;

export type DatasetName = keyof typeof DATASETS;

export interface DataRootOptions {
  /** Where to start walking up to the repository root (the folder with pnpm-workspace.yaml). Default: the working directory. */
  readonly from?: string | URL;
  /** Environment to read `FACTKIT_DATA` from. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function toPath(from: string | URL): string {
  return from instanceof URL || from.startsWith('file:') ? fileURLToPath(from) : resolve(from);
}

/** The repository root above `from` (the nearest folder holding pnpm-workspace.yaml), or undefined. */
export function findRepositoryRoot(from: string | URL = process.cwd()): string | undefined {
  let directory = toPath(from);
  for (;;) {
    if (existsSync(join(directory, 'pnpm-workspace.yaml'))) return directory;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/**
 * The data root: `$FACTKIT_DATA` when set, else `../shared/data` beside the checkout when that folder exists, else
 * undefined. The checkout is found by walking up from `options.from` (default: the working directory), then from this
 * module's own location.
 */
export function findDataRoot(options: DataRootOptions = {}): string | undefined {
  const fromEnvironment = (options.env ?? process.env)[DATA_ROOT_VARIABLE];
  if (fromEnvironment !== undefined && fromEnvironment.trim() !== '') return resolve(fromEnvironment);
  for (const start of [options.from ?? process.cwd(), new URL('.', import.meta.url)]) {
    const repository = findRepositoryRoot(start);
    if (repository === undefined) continue;
    const beside = join(repository, '..', 'shared', 'data');
    return isDirectory(beside) ? beside : undefined;
  }
  return undefined;
}

/** A dataset a test, bench or example needs is not in the data root; `message` is the one line to show. */
export class MissingDatasetError extends Error {
  readonly dataset: DatasetName;
  constructor(dataset: DatasetName, message: string) {
    super(message);
    this.name = 'MissingDatasetError';
    this.dataset = dataset;
  }
}

function checkName(name: string, where: string): asserts name is DatasetName {
  if (!Object.hasOwn(DATASETS, name)) {
    throw new RangeError(`${where}: argument "name" must be one of ${Object.keys(DATASETS).join(', ')}, got "${name}"`);
  }
}

/** The folder of dataset `name` under the data root, or undefined when there is no data root or it lacks that folder. */
export function dataset(name: DatasetName, options: DataRootOptions = {}): string | undefined {
  checkName(name, 'dataset');
  const root = findDataRoot(options);
  if (root === undefined) return undefined;
  const directory = join(root, name);
  return isDirectory(directory) ? directory : undefined;
}

/** True when the environment says this is a CI run (`CI=true` or `CI=1`): missing data is then a failure, not a skip. */
export function isCi(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value === 'true' || value === '1';
}

/**
 * One line saying which dataset is needed, where it is published, and how to point factkit at it.
 * `flag` names the command-line option that takes the folder (e.g. `--beir <folder>`), when the caller has one.
 */
export function missingDatasetMessage(name: DatasetName, options: DataRootOptions & { readonly flag?: string } = {}): string {
  checkName(name, 'missingDatasetMessage');
  const info: DatasetInfo = DATASETS[name];
  const root = findDataRoot(options);
  const where = root === undefined ? `no data root: ${DATA_ROOT_VARIABLE} is unset and no ../shared/data beside the checkout` : `data root ${root} has no ${name}/`;
  const how = options.flag === undefined ? `set ${DATA_ROOT_VARIABLE} to a folder holding ${name}/` : `pass ${options.flag} or set ${DATA_ROOT_VARIABLE} to a folder holding ${name}/`;
  return `needs ${info.title} (${info.publishedAt}); ${where} — ${how}`;
}

/** The folder of dataset `name`; throws a {@link MissingDatasetError} with {@link missingDatasetMessage} when it is absent. */
export function requireDataset(name: DatasetName, options: DataRootOptions & { readonly flag?: string } = {}): string {
  const directory = dataset(name, options);
  if (directory === undefined) throw new MissingDatasetError(name, missingDatasetMessage(name, options));
  return directory;
}

/**
 * For example and bench scripts: the folder given on the command line (`given`), else dataset `name` in the data root;
 * with neither, writes {@link missingDatasetMessage} (one line) to stderr and exits with code 1. Nothing downloads.
 */
export function datasetArgument(name: DatasetName, given: string | undefined, flag: string): string {
  if (given !== undefined && given !== '') return given;
  const directory = dataset(name);
  if (directory !== undefined) return directory;
  process.stderr.write(`${missingDatasetMessage(name, { flag })}\n`);
  process.exit(1);
}
