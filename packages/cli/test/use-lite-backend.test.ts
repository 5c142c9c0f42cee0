import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { loadDenseIndex } from '@factkit/retrieval/node';
import { USE_LITE_MAX_TEXT_LENGTH } from '@factkit/use-lite';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const beir = fileURLToPath(new URL('./fixtures/tiny-beir', import.meta.url));

/** A module hook that makes `onnxruntime-node` unresolvable, as on a machine where the package is missing. */
function hideOnnxRuntime(dir: string): string {
  const hook = join(dir, 'hide-onnxruntime.mjs');
  const resolver = `export async function resolve(specifier, context, next) { if (specifier === 'onnxruntime-node') { const error = new Error("Cannot find package 'onnxruntime-node'"); error.code = 'ERR_MODULE_NOT_FOUND'; throw error; } return next(specifier, context); }`;
  writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(resolver)}`)});\n`);
  return pathToFileURL(hook).href;
}

describe('factkit and USE-lite backends (built bin)', () => {
  it('index --kind dense runs on onnx silently; without onnxruntime-node it says so in one stderr line and gives the same vectors (within 1e-6)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-backend-'));
    const onnxOut = join(dir, 'onnx.dense');
    const wasmOut = join(dir, 'wasm.dense');
    const onnx = await run(process.execPath, [bin, 'index', '--beir', beir, '--kind', 'dense', '--out', onnxOut, '--json']);
    expect(onnx.stderr).not.toMatch(/onnxruntime-node/);
    const wasm = await run(process.execPath, ['--import', hideOnnxRuntime(dir), bin, 'index', '--beir', beir, '--kind', 'dense', '--out', wasmOut, '--json']);
    const lines = wasm.stderr.split('\n').filter((line) => line.includes('onnxruntime-node'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^factkit: onnxruntime-node did not load \(.*onnxruntime-node.*\); USE-lite runs on WebAssembly instead: same vectors, about 4-5x slower$/);
    expect(JSON.parse(wasm.stdout)).toMatchObject({ documents: 4, problems: 0 });
    const [a, b] = [await loadDenseIndex(onnxOut), await loadDenseIndex(wasmOut)];
    expect(b.ids).toEqual(a.ids);
    let max = 0;
    a.vectors.forEach((value, index) => (max = Math.max(max, Math.abs(value - (b.vectors[index] as number)))));
    expect(max).toBeGreaterThan(0); // two different backends really ran
    expect(max).toBeLessThanOrEqual(1e-6);
  }, 180_000);

  it('a document above the USE-lite limit is a per-item problem in index --kind dense and trace (exit 3); the rest is indexed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-huge-'));
    const corpus = join(dir, 'corpus.jsonl');
    const huge = 'Vitamin D and bone density. '.repeat(Math.ceil((USE_LITE_MAX_TEXT_LENGTH + 1) / 28));
    const rows = [
      { _id: 'd1', text: 'Cats purr when content.' },
      { _id: 'huge', text: huge },
      { _id: 'd2', text: 'Vitamin D supplements raise bone density in older adults.' },
      { _id: 'd3', text: 'The stock market fell sharply today.' },
    ];
    writeFileSync(corpus, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
    const out = join(dir, 'c.dense');
    const indexed = await run(process.execPath, [bin, 'index', '--jsonl', corpus, '--kind', 'dense', '--out', out, '--json']).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect((indexed as { code?: number }).code).toBe(3);
    expect(indexed.stderr).toMatch(/document "huge" is \d+ characters long; the embedder takes at most 2000000 per text, so it is left out/);
    expect(JSON.parse(indexed.stdout)).toMatchObject({ documents: 3, problems: 1 });
    expect((await loadDenseIndex(out)).ids).toEqual(['d1', 'd2', 'd3']);

    const traced = await run(process.execPath, [bin, 'trace', '--corpus', corpus, '--query', 'Vitamin D raises bone density.', '--k', '2', '--leaf-size', '2', '--json']).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect((traced as { code?: number }).code).toBe(3);
    expect(traced.stderr).toMatch(/document "huge" is \d+ characters long/);
    expect(JSON.parse(traced.stdout)).toMatchObject({ corpus: 3 });
  }, 300_000);
});
