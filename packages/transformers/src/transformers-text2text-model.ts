import { basename } from 'node:path';
import { assertPositiveInteger, InvalidArgumentError, throwIfAborted } from '@factkit/core';
import type { GenerateRequest, GenerateResult, LanguageModel } from '@factkit/core';
import { inspectModelDirectory, lazyLocalPipeline } from './internal/local-model.js';
import type { LocalModelOptions } from './local-model-options.js';

export interface TransformersText2TextModelOptions extends LocalModelOptions {
  /** Output tokens when a request gives no `maxTokens`. @default 256 */
  readonly defaultMaxTokens?: number;
  /** @default `transformers:<directory name>` */
  readonly id?: string;
}

type Tokenizer = (text: string, options?: Record<string, unknown>) => { input_ids: { dims: number[] } };
interface Text2TextPipeline {
  (texts: string[], options: Record<string, unknown>): Promise<Array<{ generated_text: string }>>;
  tokenizer: Tokenizer;
}

const WHERE = 'createTransformersText2TextModel';

/** Flattens a request to the single input text a seq2seq model takes: system, then messages or prompt, one per paragraph. */
export function renderText2TextInput(request: Pick<GenerateRequest, 'prompt' | 'messages' | 'system'>): string {
  const parts: string[] = [];
  if (request.system) parts.push(request.system);
  if (request.messages && request.messages.length > 0) {
    for (const message of request.messages) parts.push(message.content);
  } else if (request.prompt !== undefined) {
    parts.push(request.prompt);
  }
  return parts.join('\n\n');
}

function cutAtStop(text: string, stop: readonly string[] | undefined): { text: string; stopped: boolean } {
  let end = text.length;
  for (const sequence of stop ?? []) {
    if (sequence.length === 0) continue;
    const at = text.indexOf(sequence);
    if (at >= 0 && at < end) end = at;
  }
  return { text: text.slice(0, end), stopped: end < text.length };
}

/**
 * Creates a LanguageModel over a local transformers.js text2text-generation model (T5/BART-style encoder-decoder;
 * a directory with onnx/encoder_model.onnx and onnx/decoder_model_merged.onnx, never the Hub).
 * Greedy decoding at temperature 0 (default); sampling with `temperature`/`topP` > 0. `seed` is not supported by
 * transformers.js sampling and is ignored.
 * @throws InvalidArgumentError when `modelPath` is not a seq2seq model directory.
 * @example
 * const model = createTransformersText2TextModel({ modelPath: './models/flan-t5-small' });
 * const { texts } = await model.generate({ prompt: 'Translate to German: Hello' });
 */
export function createTransformersText2TextModel(options: TransformersText2TextModelOptions): LanguageModel {
  const { defaultMaxTokens = 256 } = options;
  const directory = inspectModelDirectory(WHERE, options, ['encoder_model', 'decoder_model_merged']);
  assertPositiveInteger('defaultMaxTokens', defaultMaxTokens, WHERE);
  if (directory.config['is_encoder_decoder'] === false) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'modelPath', message: `is not an encoder-decoder model (config.json is_encoder_decoder: false) in ${directory.path}` });
  }
  const id = options.id ?? `transformers:${basename(directory.path)}`;
  const load = lazyLocalPipeline(WHERE, directory, 'text2text-generation', (pipeline) => pipeline as Text2TextPipeline);

  return {
    id,
    provider: 'transformers.js',
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const { maxTokens = defaultMaxTokens, temperature = 0, topP, n = 1, stop, abortSignal } = request;
      if (request.prompt === undefined && (request.messages === undefined || request.messages.length === 0)) {
        throw new InvalidArgumentError({ where: 'transformers generate', argument: 'prompt', message: 'or "messages" must be given' });
      }
      assertPositiveInteger('n', n, 'transformers generate');
      assertPositiveInteger('maxTokens', maxTokens, 'transformers generate');
      throwIfAborted(abortSignal);
      const generator = await load();
      const input = renderText2TextInput(request);
      const sample = temperature > 0;
      const generateOptions: Record<string, unknown> = { max_new_tokens: maxTokens, do_sample: sample };
      if (sample) {
        generateOptions['temperature'] = temperature;
        if (topP !== undefined) generateOptions['top_p'] = topP;
      }
      const texts: string[] = [];
      const finishReasons: string[] = [];
      let outputTokens = 0;
      for (let index = 0; index < n; index += 1) {
        throwIfAborted(abortSignal);
        const [output] = await generator([input], generateOptions);
        const { text, stopped } = cutAtStop(output?.generated_text ?? '', stop);
        const tokens = generator.tokenizer(text, { add_special_tokens: false }).input_ids.dims.at(-1) ?? 0;
        outputTokens += tokens;
        texts.push(text);
        finishReasons.push(stopped ? 'stop' : tokens >= maxTokens ? 'length' : 'stop');
      }
      throwIfAborted(abortSignal);
      const inputTokens = generator.tokenizer(input).input_ids.dims.at(-1) ?? 0;
      return { texts, finishReasons, usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } };
    },
  };
}
