import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { CorruptDataError, FactkitError, InvalidArgumentError } from '@factkit/core';

import type { LocalModelOptions, TransformersDtype } from '../local-model-options.js';

const DTYPE_SUFFIX: Record<TransformersDtype, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  bnb4: '_bnb4',
  q4f16: '_q4f16',
};

export interface LocalModelDirectory {
  /** Absolute path, used as the transformers.js model id (absolute paths are read directly from disk). */
  readonly path: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly dtype: TransformersDtype;
}

/**
 * Checks a model directory synchronously at construction, so a wrong path fails at once with a clear message.
 * @throws InvalidArgumentError (argument "modelPath") when the directory or a required file is missing;
 * CorruptDataError when config.json is not a JSON object.
 */
export function inspectModelDirectory(where: string, options: LocalModelOptions, onnxFiles: readonly string[]): LocalModelDirectory {
  const { modelPath, dtype = 'fp32' } = options;
  if (typeof modelPath !== 'string' || modelPath.length === 0) {
    throw new InvalidArgumentError({ where, argument: 'modelPath', message: 'must be a path to a local model directory' });
  }
  if (!Object.hasOwn(DTYPE_SUFFIX, dtype)) {
    throw new InvalidArgumentError({ where, argument: 'dtype', message: `must be one of ${Object.keys(DTYPE_SUFFIX).join(', ')} (got ${String(dtype)})` });
  }
  const path = isAbsolute(modelPath) ? modelPath : resolve(modelPath);
  if (!existsSync(path) || !statSync(path).isDirectory()) {
    throw new InvalidArgumentError({ where, argument: 'modelPath', message: `is not an existing directory: ${path} (models are only loaded from disk, never downloaded)` });
  }
  const required = ['config.json', 'tokenizer.json', 'tokenizer_config.json', ...onnxFiles.map((name) => join('onnx', `${name}${DTYPE_SUFFIX[dtype]}.onnx`))];
  const missing = required.filter((file) => !existsSync(join(path, file)));
  if (missing.length > 0) {
    throw new InvalidArgumentError({ where, argument: 'modelPath', message: `is missing ${missing.join(', ')} in ${path}` });
  }
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(join(path, 'config.json'), 'utf8'));
  } catch (cause) {
    throw new CorruptDataError({ source: join(path, 'config.json'), message: 'is not valid JSON', cause });
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new CorruptDataError({ source: join(path, 'config.json'), message: 'must be a JSON object' });
  }
  return { path, config: config as Record<string, unknown>, dtype };
}

type TransformersModule = typeof import('@huggingface/transformers');

/**
 * Imports transformers.js (an optional peer dependency) and switches it to local-only loading: no remote models,
 * no download cache, no browser cache. These are process-wide settings of the transformers.js instance.
 */
export async function importLocalTransformers(where: string): Promise<TransformersModule> {
  let transformers: TransformersModule;
  try {
    transformers = await import('@huggingface/transformers');
  } catch (cause) {
    throw new FactkitError('load_failed', `${where}: cannot import "@huggingface/transformers"; install it (npm i @huggingface/transformers@^3.8.1)`, { cause });
  }
  const { env } = transformers;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  env.useBrowserCache = false;
  return transformers;
}

/** Wraps a transformers.js loading failure in a typed error that names the directory. */
export function loadFailed(where: string, directory: LocalModelDirectory, cause: unknown): FactkitError {
  return new FactkitError('load_failed', `${where}: could not load the model in ${directory.path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
}

/**
 * Loads a transformers.js pipeline for `task` from the checked local directory on first call and shares the promise;
 * a failed load is forgotten, so the next call tries again. `prepare` (run inside the same error wrapping) turns
 * the pipeline into what the model keeps. Import failures keep their own message; load failures become `loadFailed`.
 */
export function lazyLocalPipeline<T>(where: string, directory: LocalModelDirectory, task: 'feature-extraction' | 'text-classification' | 'text2text-generation', prepare: (pipeline: unknown) => T): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= (async () => {
      const { pipeline } = await importLocalTransformers(where);
      try {
        return prepare(await pipeline(task, directory.path, { local_files_only: true, dtype: directory.dtype, device: 'cpu' }));
      } catch (cause) {
        throw loadFailed(where, directory, cause);
      }
    })().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
