import { access, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { FactkitError, InvalidArgumentError } from '@factkit/core';

/** Names looked for in the current directory and every parent, in this order. */
export const CONFIG_FILE_NAMES = ['factkit.config.json', '.factkitrc.json'] as const;

/**
 * A bad config file: names the file and, when one is at fault, the key (`index.kind`). An InvalidArgumentError, so
 * the CLI exits 2. The message never contains the value of `apiKey`.
 */
const CONFIG_FILE_MARKER = 'factkit.error.ConfigFileError';
const CONFIG_FILE_SYMBOL = Symbol.for(CONFIG_FILE_MARKER);

export class ConfigFileError extends InvalidArgumentError {
  private readonly [CONFIG_FILE_SYMBOL] = true;
  readonly file: string;
  readonly key: string | undefined;
  constructor(options: { file: string; key?: string; message: string; cause?: unknown }) {
    super({ where: options.file, argument: options.key ?? '(file)', message: options.message, cause: options.cause });
    this.name = 'ConfigFileError';
    this.file = options.file;
    this.key = options.key;
    this.message = options.key === undefined ? `${options.file}: ${options.message}` : `${options.file}: key "${options.key}" ${options.message}`;
  }
  /** Its own marker: an InvalidArgumentError from elsewhere is not a ConfigFileError. */
  static override isInstance(value: unknown): value is ConfigFileError {
    return FactkitError.hasMarker(value, CONFIG_FILE_MARKER);
  }
}

type KeyType = 'string' | 'number' | 'integer' | 'boolean' | readonly string[];

interface KeySpec {
  /** The flag the key stands for (without `--`). */
  readonly flag: string;
  readonly type: KeyType;
}

/** Keys allowed at the top level (global defaults) and in every command section; applied where the command has the flag. */
const SHARED_KEYS: Readonly<Record<string, KeySpec>> = {
  baseURL: { flag: 'base-url', type: 'string' },
  model: { flag: 'model', type: 'string' },
  apiKey: { flag: 'api-key', type: 'string' },
  cacheDir: { flag: 'cache-dir', type: 'string' },
  offline: { flag: 'offline', type: 'boolean' },
  concurrency: { flag: 'concurrency', type: 'integer' },
  outDir: { flag: '', type: 'string' },
};

/** Per-command keys (camelCase of the flag). */
const COMMAND_KEYS: Readonly<Record<string, Readonly<Record<string, KeySpec>>>> = {
  check: { corpus: { flag: 'corpus', type: 'string' }, topK: { flag: 'top-k', type: 'integer' }, verifierModel: { flag: 'verifier-model', type: 'string' }, noHtml: { flag: 'no-html', type: 'boolean' } },
  eval: {
    split: { flag: 'split', type: 'string' },
    k1: { flag: 'k1', type: 'number' },
    b: { flag: 'b', type: 'number' },
    variant: { flag: 'variant', type: ['lucene', 'robertson', 'bm25+', 'bm25l'] },
    rm3: { flag: 'rm3', type: 'boolean' },
    fbDocs: { flag: 'fb-docs', type: 'integer' },
    fbTerms: { flag: 'fb-terms', type: 'integer' },
    originalQueryWeight: { flag: 'original-query-weight', type: 'number' },
    hits: { flag: 'hits', type: 'integer' },
    metrics: { flag: 'metrics', type: 'string' },
    resamples: { flag: 'resamples', type: 'integer' },
    seed: { flag: 'seed', type: 'integer' },
  },
  index: {
    kind: { flag: 'kind', type: ['bm25', 'dense', 'hybrid'] },
    k1: { flag: 'k1', type: 'number' },
    b: { flag: 'b', type: 'number' },
    embedder: { flag: 'embedder', type: 'string' },
    dimensions: { flag: 'dimensions', type: 'integer' },
    batchSize: { flag: 'batch-size', type: 'integer' },
    fusion: { flag: 'fusion', type: ['rrf', 'min-max', 'z-score', 'comb-sum', 'comb-mnz'] },
    rrfK: { flag: 'rrf-k', type: 'number' },
    candidateDepth: { flag: 'candidate-depth', type: 'integer' },
  },
  search: { index: { flag: 'index', type: 'string' }, topK: { flag: 'top-k', type: 'integer' } },
  expand: { method: { flag: 'method', type: 'string' }, index: { flag: 'index', type: 'string' }, samples: { flag: 'samples', type: 'integer' } },
  audit: { split: { flag: 'split', type: 'string' }, limit: { flag: 'limit', type: 'integer' }, repeats: { flag: 'repeats', type: 'integer' }, ks: { flag: 'ks', type: 'string' } },
  enrich: { chunker: { flag: 'chunker', type: ['sentence', 'token'] }, maxTokens: { flag: 'max-tokens', type: 'integer' }, questions: { flag: 'questions', type: 'integer' } },
  trace: { k: { flag: 'k', type: 'integer' }, leafSize: { flag: 'leaf-size', type: 'integer' }, seed: { flag: 'seed', type: 'integer' }, baselines: { flag: 'baselines', type: 'string' } },
  models: { dir: { flag: 'dir', type: 'string' } },
};

/** Output-path flags per command: with `outDir`, their relative values are resolved under it. */
const OUTPUT_FLAGS: Readonly<Record<string, readonly string[]>> = {
  check: ['out', 'html'],
  eval: ['run'],
  'eval-runs': ['svg', 'html'],
  index: ['out'],
  audit: ['out', 'svg', 'html'],
  enrich: ['out', 'md', 'svg', 'html'],
  trace: ['out', 'md', 'svg', 'html'],
};

/** Which environment variable beats which config key (flags > env > config file > defaults). */
const ENV_OVERRIDES: Readonly<Record<string, string>> = { 'base-url': 'OPENAI_BASE_URL', 'api-key': 'OPENAI_API_KEY', model: 'FACTKIT_MODEL' };

const ENV_REFERENCE = /^\$env:([A-Za-z_][A-Za-z0-9_]*)$/;

type ConfigValue = string | number | boolean;

/** A validated config file: global defaults and per-command sections (values as written; `apiKey` is an env reference). */
export interface FactkitConfig {
  readonly path: string;
  readonly global: Readonly<Record<string, ConfigValue>>;
  readonly commands: Readonly<Record<string, Readonly<Record<string, ConfigValue>>>>;
}

/** Edit distance (insert, delete, substitute), for "did you mean" on unknown keys; keys are short, so the O(nm) table is fine. */
function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] as number;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] as number;
      previous[j] = Math.min(above + 1, (previous[j - 1] as number) + 1, diagonal + (a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length] as number;
}

function suggest(key: string, candidates: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(key, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? ` (did you mean "${best}"?)` : ` (allowed: ${candidates.join(', ')})`;
}

function checkValue(file: string, key: string, name: string, spec: KeySpec, value: unknown): ConfigValue {
  if (name === 'apiKey') {
    // Never echo the value: it may be a real key.
    if (typeof value !== 'string' || !ENV_REFERENCE.test(value)) {
      throw new ConfigFileError({ file, key, message: 'must be an environment reference such as "$env:OPENAI_API_KEY"; a literal key in a file is refused (the value is not shown)' });
    }
    return value;
  }
  const got = ` (got ${JSON.stringify(value)?.slice(0, 60)})`;
  const { type } = spec;
  if (Array.isArray(type)) {
    if (typeof value !== 'string' || !type.includes(value)) throw new ConfigFileError({ file, key, message: `must be one of ${type.join(', ')}${got}` });
    return value;
  }
  if (type === 'boolean' && typeof value !== 'boolean') throw new ConfigFileError({ file, key, message: `must be true or false${got}` });
  if (type === 'string' && (typeof value !== 'string' || value.trim() === '')) throw new ConfigFileError({ file, key, message: `must be a non-empty string${got}` });
  if (type === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) throw new ConfigFileError({ file, key, message: `must be a number${got}` });
  if (type === 'integer' && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) throw new ConfigFileError({ file, key, message: `must be a positive integer${got}` });
  if (name === 'baseURL' && !/^https?:\/\/\S+$/i.test(value as string)) throw new ConfigFileError({ file, key, message: `must be an http(s) URL${got}` });
  return value as ConfigValue;
}

function checkSection(file: string, prefix: string, section: unknown, allowed: Readonly<Record<string, KeySpec>>): Record<string, ConfigValue> {
  if (typeof section !== 'object' || section === null || Array.isArray(section)) throw new ConfigFileError({ file, key: prefix, message: 'must be an object' });
  const out: Record<string, ConfigValue> = {};
  for (const [name, value] of Object.entries(section)) {
    const spec = allowed[name];
    const key = `${prefix}.${name}`;
    if (!spec) throw new ConfigFileError({ file, message: `unknown key "${key}"${suggest(name, Object.keys(allowed))}` });
    out[name] = checkValue(file, key, name, spec, value);
  }
  return out;
}

/**
 * Parses and validates a config file's text: top-level global defaults (baseURL, model, apiKey, cacheDir, offline,
 * concurrency, outDir) and one optional section per command (its keys are the camelCase of its flags, plus the global
 * keys). Unknown keys are errors with a suggestion; `apiKey` must be an env reference (`"$env:NAME"`).
 * @throws ConfigFileError naming the file and the key.
 */
export function parseConfigFile(text: string, file: string): FactkitConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    // Only the position: the parser's message quotes the text around it, which could be a secret.
    const position = /position (\d+)/.exec(cause instanceof Error ? cause.message : '')?.[1];
    let where = '';
    if (position !== undefined) {
      const before = text.slice(0, Number(position));
      where = ` at line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
    }
    throw new ConfigFileError({ file, message: `is not valid JSON${where}` });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ConfigFileError({ file, message: 'must hold a JSON object' });
  const global: Record<string, ConfigValue> = {};
  const commands: Record<string, Record<string, ConfigValue>> = {};
  const topLevel = [...Object.keys(SHARED_KEYS), ...Object.keys(COMMAND_KEYS), '$schema'];
  for (const [name, value] of Object.entries(json)) {
    if (name === '$schema') continue;
    const commandKeys = COMMAND_KEYS[name];
    if (commandKeys) commands[name] = checkSection(file, name, value, { ...SHARED_KEYS, ...commandKeys });
    else if (SHARED_KEYS[name]) global[name] = checkValue(file, name, name, SHARED_KEYS[name], value);
    else throw new ConfigFileError({ file, message: `unknown key "${name}"${suggest(name, topLevel)}` });
  }
  return { path: file, global, commands };
}

/** The config file to use: `explicit` (from --config), else the first of CONFIG_FILE_NAMES in `cwd` or a parent. */
export async function findConfigFile(cwd: string): Promise<string | undefined> {
  let folder = resolve(cwd);
  for (;;) {
    const found: string[] = [];
    for (const name of CONFIG_FILE_NAMES) {
      const path = join(folder, name);
      if (
        await access(path).then(
          () => true,
          () => false,
        )
      )
        found.push(path);
    }
    if (found.length > 1) throw new ConfigFileError({ file: found[0] as string, message: `and ${CONFIG_FILE_NAMES[1]} are both in ${folder}; keep one` });
    if (found[0] !== undefined) return found[0];
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

/** Reads and validates a config file. @throws ConfigFileError (unreadable, bad JSON, bad key or value). */
export async function loadConfigFile(path: string): Promise<FactkitConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new ConfigFileError({ file: path, message: `cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`, cause });
  }
  return parseConfigFile(text, path);
}

/** What applying a config to one command gives: the arguments to run with, secrets to redact, warnings to print. */
export interface AppliedConfig {
  readonly args: string[];
  readonly secrets: string[];
  readonly warnings: string[];
  /** The output folder (`outDir`), when set for this command. */
  readonly outDir?: string;
}

function flagValue(args: readonly string[], flag: string): boolean {
  return args.some((argument) => argument === `--${flag}` || argument.startsWith(`--${flag}=`));
}

/**
 * Turns a config into command-line defaults for `command` (`eval-runs` for `eval --qrels/--runs`): the command
 * section beats the global keys; a key is only used when the command has that flag; `baseURL` / `apiKey` / `model`
 * yield to OPENAI_BASE_URL / OPENAI_API_KEY / FACTKIT_MODEL; the user's flags come last, so they win (parseArgs keeps
 * the last value). `apiKey: "$env:NAME"` is read from `env` here and returned in `secrets` for redaction. With
 * `outDir`, relative output paths (--out, --html, --svg, --md, --run) are resolved under it. `flags` are the flags the
 * command has (its option table in the command table), so a default is only injected where it exists.
 */
export function applyConfig(config: FactkitConfig, command: string, args: readonly string[], env: Readonly<Record<string, string | undefined>>, flags: readonly string[]): AppliedConfig {
  const section = config.commands[command === 'eval-runs' ? 'eval' : command] ?? {};
  const merged: Record<string, ConfigValue> = { ...config.global, ...section };
  const accepted = new Set(flags);
  const specs = { ...SHARED_KEYS, ...(COMMAND_KEYS[command === 'eval-runs' ? 'eval' : command] ?? {}) };
  const injected: string[] = [];
  const secrets: string[] = [];
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(merged)) {
    const spec = specs[name];
    if (!spec || spec.flag === '' || !accepted.has(spec.flag)) continue;
    const envName = ENV_OVERRIDES[spec.flag];
    if (envName && env[envName]) continue;
    if (name === 'apiKey') {
      const variable = ENV_REFERENCE.exec(String(value))?.[1] as string;
      const secret = env[variable];
      if (!secret) {
        if (!flagValue(args, 'api-key')) warnings.push(`${config.path}: key "apiKey" refers to $${variable}, which is not set; no API key is sent`);
        continue;
      }
      secrets.push(secret);
      injected.push('--api-key', secret);
      continue;
    }
    if (spec.type === 'boolean') {
      if (value === true) injected.push(`--${spec.flag}`);
      continue;
    }
    injected.push(`--${spec.flag}`, String(value));
  }
  let finalArgs = [...injected, ...args];
  const outDir = typeof merged['outDir'] === 'string' ? resolve(dirname(config.path), merged['outDir']) : undefined;
  const outputs = OUTPUT_FLAGS[command] ?? [];
  if (outDir && outputs.length > 0) {
    finalArgs = finalArgs.map((argument, position) => {
      const previous = finalArgs[position - 1];
      if (previous !== undefined && outputs.some((flag) => previous === `--${flag}`) && !isAbsolute(argument)) return join(outDir, argument);
      const inline = outputs.find((flag) => argument.startsWith(`--${flag}=`));
      if (inline) {
        const value = argument.slice(inline.length + 3);
        return isAbsolute(value) ? argument : `--${inline}=${join(outDir, value)}`;
      }
      return argument;
    });
  }
  return { args: finalArgs, secrets, warnings, ...(outDir && outputs.length > 0 ? { outDir } : {}) };
}
