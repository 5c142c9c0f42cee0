// Fact tracing (FastTrack paper, Table 1): FastTrack with an offline NLI judge vs BM25 vs embedding similarity vs the
// stage-1 upper bound "Ours*", on the FEVER-lite + Climate-FEVER + SciFact tracing benchmark, with the cost per query.
//
//   pnpm --filter fact-trace start                                   10k corpus, GloVe embeddings, lexical NLI judge
//   pnpm --filter fact-trace start -- --size 10000,50000 --embedder use-lite --ensemble 3 --queries 100 --data <root>
//   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 FACTKIT_MODEL=... pnpm --filter fact-trace start   + the paper's LLM path
//
// The index is saved under out/ and reloaded on the next run; LLM calls are cached under out/llm-cache, so an
// interrupted LLM run resumes where it stopped. Exits 1 when a query had to be left out of a row.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { InvalidArgumentError, withCache, withRetry, type Embedder } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createGloveEmbedder } from '@factkit/glove';
import { createLexicalNliModel } from '@factkit/nli-models';
import { createOpenAICompatible } from '@factkit/openai';
import { datasetArgument } from '@factkit/test-utils/data';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { buildTracingBenchmark } from './benchmark.js';
import { runStudy } from './study.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '100' },
    embedder: { type: 'string', default: 'glove' },
    out: { type: 'string', default: join(dirname(fileURLToPath(import.meta.url)), '..', 'out') },
    ensemble: { type: 'string', default: '1' },
    data: { type: 'string' },
  },
});
// The data root: --data, else the one holding fever-lite/, climate-fever/ and scifact/ (a missing one is named).
const dataRoot = values.data ?? dirname((['fever-lite', 'climate-fever', 'scifact'] as const).map((name) => datasetArgument(name, undefined, '--data <root>'))[0] as string);
const outDir = values.out;
mkdirSync(outDir, { recursive: true });

// USE-lite on ONNX Runtime is ~5x the TF.js/wasm path (`--embedder use-lite-wasm`); embedding is the index's main cost.
const embedder: Embedder = values.embedder === 'use-lite' ? createUseLiteEmbedder({ backend: 'auto', maxBatchSize: 16 }) : values.embedder === 'use-lite-wasm' ? createUseLiteEmbedder({ maxBatchSize: 8, workers: 2 }) : createGloveEmbedder();
/** The model id for OPENAI_BASE_URL: FACTKIT_MODEL (the provider takes no default model). */
function requireModelId(): string {
  const id = process.env['FACTKIT_MODEL'];
  if (!id) throw new InvalidArgumentError({ where: 'fact-trace', argument: 'FACTKIT_MODEL', message: 'must be set when OPENAI_BASE_URL is set' });
  return id;
}
const llm = process.env['OPENAI_BASE_URL'] ? withCache(withRetry(createOpenAICompatible().languageModel(requireModelId()), { maxRetries: 3 }), createFileCache({ directory: join(outDir, 'llm-cache') })) : undefined;

const log = (line: string) => process.stderr.write(`${line}\n`);
const sections = ['# Fact tracing: FastTrack vs BM25 vs embeddings', ''];
let complete = true;
for (const size of values.size.split(',').map(Number)) {
  const benchmark = buildTracingBenchmark({ dataRoot, size, queryCount: Number(values.queries) });
  log(`corpus ${size}: ${JSON.stringify(benchmark.stats)}`);
  const result = await runStudy({ benchmark, embedder, nli: createLexicalNliModel(), ...(llm ? { llm } : {}), outDir, name: `trace-${size}`, ensemble: Number(values.ensemble), log });
  if (Object.keys(result.excluded).length > 0) complete = false;
  sections.push(result.markdown);
  writeFileSync(join(outDir, `results-${size}.json`), `${JSON.stringify({ rows: result.rows, costs: result.costs, timings: result.timings, excluded: result.excluded }, null, 2)}\n`);
}

const report = sections.join('\n');
writeFileSync(join(outDir, 'report.md'), report);
process.stdout.write(`${report}\n`);
if (!complete) {
  log('Some queries were left out because the judge could not decide all their candidates (see above).');
  process.exitCode = 1;
}
