import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, ProviderCallError, decodeTextFile } from '@factkit/core';
import { createTransformersEmbedder, createTransformersNliModel, createTransformersText2TextModel } from '@factkit/transformers';
import { EXIT_CODES } from '../exit-codes.js';
import type { CliIo } from '../cli-io.js';
import { type CommandValues, defineCommand } from '../command.js';
import { endpointProvider, resolveEndpoint } from '../endpoint.js';

export const MODELS_USAGE = `usage: factkit models [--dir <models folder>] [--base-url URL [--model ID] [--api-key KEY]] [--json]
  --dir: lists the local transformers.js model folders below it (config.json + tokenizer + onnx/*.onnx) with their
  kind (nli: config has id2label with entailment/contradiction; text2text: encoder-decoder; else embedder) and
  verifies each with the matching @factkit/transformers factory (files present, config readable); never downloads.
  --base-url (or OPENAI_BASE_URL): lists the endpoint's models (GET /models) and, with --model (or FACTKIT_MODEL),
  makes one short chat call. Exit 3 when a folder or the endpoint fails its check.`;

/** What `factkit models` found about one local model folder. */
export interface LocalModelReport {
  readonly path: string;
  readonly kind: 'embedder' | 'nli' | 'text2text';
  readonly modelType?: string;
  readonly ok: boolean;
  readonly message?: string;
}

function kindOf(config: Record<string, unknown>): LocalModelReport['kind'] {
  if (config['is_encoder_decoder'] === true) return 'text2text';
  const labels = Object.values((config['id2label'] as Record<string, unknown> | undefined) ?? {}).map((label) => String(label).toLowerCase());
  return labels.some((label) => label.startsWith('entail')) && labels.some((label) => label.startsWith('contradict')) ? 'nli' : 'embedder';
}

/** Lists and verifies the transformers.js model folders directly below `root` (and `root` itself if it is one). */
export async function inspectLocalModels(root: string): Promise<LocalModelReport[]> {
  let entries: string[];
  try {
    entries = (await readdir(root, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(root, entry.name))
      .sort();
  } catch (error) {
    throw new InvalidArgumentError({ where: 'factkit models', argument: '--dir', message: `cannot read "${root}": ${(error as NodeJS.ErrnoException).code ?? String(error)}` });
  }
  const reports: LocalModelReport[] = [];
  for (const path of [root, ...entries]) {
    let text: string;
    try {
      // A byte-order mark is not part of the JSON (core decodeTextFile strips it).
      text = decodeTextFile(await readFile(join(path, 'config.json')), join(path, 'config.json'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // not a model folder
      reports.push({ path, kind: 'embedder', ok: false, message: `config.json ${error instanceof Error ? error.message.replace(/^.*config\.json:? ?/, '') : String(error)}` });
      continue;
    }
    let config: Record<string, unknown>;
    try {
      config = JSON.parse(text) as Record<string, unknown>;
    } catch {
      reports.push({ path, kind: 'embedder', ok: false, message: 'config.json is not valid JSON' });
      continue;
    }
    const kind = kindOf(config);
    const modelType = typeof config['model_type'] === 'string' ? config['model_type'] : undefined;
    try {
      if (kind === 'nli') createTransformersNliModel({ modelPath: path });
      else if (kind === 'text2text') createTransformersText2TextModel({ modelPath: path });
      else createTransformersEmbedder({ modelPath: path });
      reports.push({ path, kind, ...(modelType ? { modelType } : {}), ok: true });
    } catch (error) {
      reports.push({ path, kind, ...(modelType ? { modelType } : {}), ok: false, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return reports;
}

const MODELS_OPTIONS = {
  dir: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

/** `factkit models`: lists and verifies local model folders and an endpoint. Returns the exit code. */
async function runModels(values: CommandValues<typeof MODELS_OPTIONS>, io: CliIo): Promise<number> {
  const connection = resolveEndpoint('models', values, io.env ?? {});
  if (!values.dir && !connection) {
    io.stderr(`factkit models: give --dir and/or --base-url (or OPENAI_BASE_URL)\n${MODELS_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const local = values.dir ? await inspectLocalModels(values.dir) : undefined;
  if (local?.length === 0) throw new InvalidArgumentError({ where: 'factkit models', argument: '--dir', message: `has no model folder (a folder with config.json) in "${values.dir}"` });
  let endpoint: { baseURL: string; ok: boolean; models?: string[]; chat?: { model: string; ok: boolean; reply?: string; ms: number; message?: string }; message?: string } | undefined;
  if (connection) {
    const provider = endpointProvider(connection);
    const { apiKey } = connection;
    endpoint = { baseURL: provider.baseURL, ok: true };
    try {
      const response = await fetch(`${provider.baseURL}/models`, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, ...(io.abortSignal ? { signal: io.abortSignal } : {}) });
      if (!response.ok) throw new ProviderCallError({ provider: provider.baseURL, message: `GET /models answered ${response.status}`, statusCode: response.status });
      const body = (await response.json()) as { data?: { id?: unknown }[] };
      endpoint = { ...endpoint, models: (body.data ?? []).map((entry) => String(entry.id)) };
    } catch (error) {
      endpoint = { ...endpoint, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    const { model } = connection;
    if (model) {
      const started = Date.now();
      try {
        const { texts } = await provider.languageModel(model).generate({ prompt: 'Reply with the single word OK.', maxTokens: 8, temperature: 0, ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
        endpoint = { ...endpoint, chat: { model, ok: true, reply: (texts[0] ?? '').slice(0, 80), ms: Date.now() - started } };
      } catch (error) {
        endpoint = { ...endpoint, ok: false, chat: { model, ok: false, ms: Date.now() - started, message: error instanceof Error ? error.message.split('\n')[0]! : String(error) } };
      }
    }
  }
  const failed = (local ?? []).some((report) => !report.ok) || (endpoint !== undefined && !endpoint.ok);
  if (values.json) io.stdout(`${JSON.stringify({ ...(local ? { local } : {}), ...(endpoint ? { endpoint } : {}) }, null, 2)}\n`);
  else {
    if (local) {
      io.stdout(local.length === 0 ? `no model folder (with config.json) in ${values.dir}\n` : '');
      for (const report of local) io.stdout(`${report.ok ? 'ok  ' : 'FAIL'}  ${report.kind.padEnd(9)} ${(report.modelType ?? '?').padEnd(12)} ${report.path}${report.message ? `  (${report.message})` : ''}\n`);
    }
    if (endpoint) {
      io.stdout(`endpoint ${endpoint.baseURL}: ${endpoint.models ? `${endpoint.models.length} model(s): ${endpoint.models.join(', ')}` : `models not listed (${endpoint.message ?? 'unknown error'})`}\n`);
      if (endpoint.chat) io.stdout(`chat ${endpoint.chat.model}: ${endpoint.chat.ok ? `ok in ${endpoint.chat.ms} ms, reply "${endpoint.chat.reply}"` : `FAILED (${endpoint.chat.message})`}\n`);
    }
  }
  return failed ? EXIT_CODES.partialFailure : EXIT_CODES.ok;
}

export const modelsCommand = defineCommand({
  name: 'models',
  summary: 'list and verify local model folders and an OpenAI-compatible endpoint',
  usage: MODELS_USAGE,
  options: MODELS_OPTIONS,
  run: runModels,
});
