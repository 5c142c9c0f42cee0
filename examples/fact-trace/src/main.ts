// Fact tracing study: FastTrack (offline judge) vs BM25 vs embedding similarity vs the stage-1 upper bound, on the
// FEVER-lite + Climate-FEVER + SciFact tracing benchmark (10k and 50k documents), with the cost per query.
//
//   pnpm --filter fact-trace start                              10k corpus, GloVe embeddings, lexical NLI judge
//   pnpm --filter fact-trace start -- --data <root>             data root with fever-lite/, climate-fever/, scifact/
//                                                                (default: $FACTKIT_DATA, or ../shared/data beside the checkout)
//   pnpm --filter fact-trace start -- --size 50000 --embedder use-lite
//   pnpm --filter fact-trace start -- --ensemble 3                 adds Table 2's ensemble rows (3 clusterings, seeds)
//   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 FACTKIT_MODEL=... pnpm --filter fact-trace start   + the paper's LLM path
//
// The index is saved under out/ and reloaded on the next run; LLM calls are cached under out/llm-cache, so an
// interrupted LLM run resumes where it stopped.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withCache, withRetry, type Embedder, type LanguageModel } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createGloveEmbedder } from '@factkit/glove';
import { createLexicalNliModel } from '@factkit/nli-models';
import { createOpenAICompatible } from '@factkit/openai';
import { datasetArgument } from '@factkit/test-utils/data';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { buildTracingBenchmark } from './benchmark.js';
import { runStudy } from './study.js';

const here = dirname(fileURLToPath(import.meta.url));

function argument(name: string, fallback: string): string {
  const position = process.argv.indexOf(`--${name}`);
  return position >= 0 ? (process.argv[position + 1] ?? fallback) : fallback;
}

async function main(): Promise<void> {
  const sizes = argument('size', '10000').split(',').map(Number);
  const queryCount = Number(argument('queries', '100'));
  const embedderName = argument('embedder', 'glove');
  const outDir = argument('out', join(here, '..', 'out'));
  const ensemble = Number(argument('ensemble', '1'));
  const given = argument('data', '');
  const dataRoot = given !== '' ? given : dirname((['fever-lite', 'climate-fever', 'scifact'] as const).map((name) => datasetArgument(name, undefined, '--data <root>'))[0] as string);
  mkdirSync(outDir, { recursive: true });
  // USE-lite on ONNX Runtime (same weights and graph as the TF.js/wasm default, ~5x its throughput in the use-lite bench):
  // embedding the corpus is the index build's dominant cost. `--embedder use-lite-wasm` keeps the TF.js path.
  const embedder: Embedder =
    embedderName === 'use-lite'
      ? createUseLiteEmbedder({ backend: 'onnx' })
      : embedderName === 'use-lite-wasm'
        ? createUseLiteEmbedder({ maxBatchSize: 8, workers: 2 })
        : createGloveEmbedder();
  let llm: LanguageModel | undefined;
  if (process.env['OPENAI_BASE_URL']) {
    const modelId = process.env['FACTKIT_MODEL'];
    if (!modelId) throw new Error('OPENAI_BASE_URL is set: set FACTKIT_MODEL too');
    llm = withCache(withRetry(createOpenAICompatible().languageModel(modelId), { maxRetries: 3 }), createFileCache({ directory: join(outDir, 'llm-cache') }));
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const sections: string[] = ['# Fact tracing: FastTrack vs BM25 vs embeddings', ''];
  let complete = true;
  for (const size of sizes) {
    const benchmark = buildTracingBenchmark({ dataRoot, size, queryCount });
    log(`corpus ${size}: ${JSON.stringify(benchmark.stats)}`);
    const result = await runStudy({ benchmark, embedder, nli: createLexicalNliModel(), ...(llm ? { llm } : {}), outDir, name: `trace-${size}`, ensemble, log });
    if (Object.keys(result.excluded).length > 0) complete = false;
    sections.push(result.markdown);
    writeFileSync(join(outDir, `results-${size}.json`), `${JSON.stringify({ rows: result.rows, costs: result.costs, timings: result.timings, excluded: result.excluded }, null, 2)}\n`);
  }
  const report = sections.join('\n');
  writeFileSync(join(outDir, 'report.md'), report);
  process.stdout.write(`${report}\n`);
  if (!complete) {
    process.stderr.write('Some queries were left out because the judge could not decide all their candidates (see above).\n');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
