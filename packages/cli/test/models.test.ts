import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: '' };

function modelFolder(root: string, name: string, config: object, files: string[]): void {
  const path = join(root, name);
  mkdirSync(join(path, 'onnx'), { recursive: true });
  writeFileSync(join(path, 'config.json'), JSON.stringify(config));
  for (const file of files) writeFileSync(join(path, file), '{}');
}

describe('factkit models (built bin)', () => {
  it('lists local model folders with their kind and flags the incomplete one (exit 3)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'factkit-models-'));
    modelFolder(root, 'minilm', { model_type: 'bert', hidden_size: 384 }, ['tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']);
    modelFolder(root, 'nli-deberta', { model_type: 'deberta-v2', id2label: { 0: 'entailment', 1: 'neutral', 2: 'contradiction' } }, ['tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']);
    modelFolder(root, 'broken', { model_type: 'bert', hidden_size: 8 }, ['tokenizer_config.json']);
    mkdirSync(join(root, 'not-a-model'));
    const failure = await run(process.execPath, [bin, 'models', '--dir', root, '--json'], { env }).catch((error: { code: number; stdout: string }) => error);
    expect(failure).toMatchObject({ code: 3 });
    const { local } = JSON.parse((failure as { stdout: string }).stdout) as { local: { path: string; kind: string; ok: boolean; message?: string }[] };
    expect(local.map((m) => [m.path.slice(root.length + 1), m.kind, m.ok])).toEqual([
      ['broken', 'embedder', false],
      ['minilm', 'embedder', true],
      ['nli-deberta', 'nli', true],
    ]);
    expect(local[0]?.message).toMatch(/missing tokenizer\.json, onnx\/model\.onnx/);
  });

  it('verifies an endpoint: lists its models and makes one chat call (scripted server on 127.0.0.1)', async () => {
    const server = await startScriptedOpenAIServer({ models: ['jointcq', 'qwen'], script: () => ({ content: 'OK' }) });
    try {
      const { stdout } = await run(process.execPath, [bin, 'models', '--base-url', server.url, '--model', 'jointcq'], { env });
      expect(stdout).toContain(`endpoint ${server.url}: 2 model(s): jointcq, qwen`);
      expect(stdout).toMatch(/chat jointcq: ok in \d+ ms, reply "OK"/);
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
    } finally {
      await server.close();
    }
    // A closed endpoint is a failed check: exit 3, one line per part.
    const failure = await run(process.execPath, [bin, 'models', '--base-url', server.url], { env }).catch((error: { code: number; stdout: string }) => error);
    expect(failure).toMatchObject({ code: 3, stdout: expect.stringMatching(/models not listed/) });
  });

  it('bad input exits 2', async () => {
    await expect(run(process.execPath, [bin, 'models'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/give --dir and\/or --base-url/) });
    await expect(run(process.execPath, [bin, 'models', '--dir', '/nonexistent'], { env })).rejects.toMatchObject({ code: 2 });
  });
});
