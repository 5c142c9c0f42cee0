/**
 * SciFact through a search cluster: streams the 5,183-document corpus into a fresh index with the bulk indexer,
 * runs the repository's 240 test queries (top 1000) and compares nDCG@10 / R@100 / MAP with @factkit/retrieval's
 * in-process BM25 (0.696649 / 0.917083 / 0.659107).
 *
 *   OPENSEARCH_URL=http://localhost:9200 pnpm --filter @factkit/search-cluster eval:scifact     (real OpenSearch)
 *   ELASTICSEARCH_URL=http://localhost:9201 pnpm --filter @factkit/search-cluster eval:scifact  (real Elasticsearch)
 *   pnpm --filter @factkit/search-cluster eval:scifact   (no URL: the scripted protocol server; it scores with
 *                                                          @factkit/retrieval, so equal numbers there check requests only)
 * Exits 1 when indexing is incomplete or a metric differs from retrieval's by more than 1e-3 (real cluster) / 1e-5 (protocol).
 */
import { createSearchClusterRetriever } from '../src/index.js';
import { CLIENTS } from '../test/clients.js';
import { RETRIEVAL_SCIFACT, runSciFact } from '../test/scifact-run.js';
import { startScriptedClusterServer } from '../test/scripted-cluster-server.js';

const opensearch = process.env['OPENSEARCH_URL'];
const elasticsearch = process.env['ELASTICSEARCH_URL'];
const flavor = opensearch ? 'opensearch' : elasticsearch ? 'elasticsearch' : 'opensearch';
const server = opensearch || elasticsearch ? undefined : await startScriptedClusterServer({ flavor });
const url = opensearch ?? elasticsearch ?? (server?.url as string);
const mode = server ? 'PROTOCOL RUN (scripted server, scores from @factkit/retrieval; not a real cluster)' : `REAL CLUSTER ${url}`;
const client = CLIENTS.find((candidate) => candidate.flavor === flavor)!.create(url);
const retriever = createSearchClusterRetriever({ client, index: `factkit-scifact-${Date.now().toString(36)}` });
process.stderr.write(`${mode}: index ${retriever.index}\n`);
let lastPrinted = 0;
try {
  const result = await runSciFact(retriever, {
    onProgress: (progress) => {
      if (progress.total - lastPrinted < 1000) return;
      lastPrinted = progress.total;
      process.stderr.write(`  read ${progress.total}, settled ${progress.completed}, failed ${progress.failed ?? 0}\n`);
    },
  });
  const tolerance = server ? 1e-5 : 1e-3;
  const rows = (Object.keys(RETRIEVAL_SCIFACT) as (keyof typeof RETRIEVAL_SCIFACT)[]).map((metric) => ({
    metric,
    cluster: result.metrics[metric],
    retrieval: RETRIEVAL_SCIFACT[metric],
    difference: result.metrics[metric] - RETRIEVAL_SCIFACT[metric],
  }));
  console.log(
    `\n${mode}\nindexed ${result.indexing.indexed} of ${result.indexing.read} documents in ${result.indexSeconds.toFixed(1)} s (${result.indexing.requests} bulk requests, ${result.indexing.retried} retried); ${result.queries} queries in ${result.searchSeconds.toFixed(1)} s\n`,
  );
  console.log('| metric | cluster | @factkit/retrieval | difference |\n|---|---:|---:|---:|');
  for (const row of rows) console.log(`| ${row.metric} | ${row.cluster.toFixed(6)} | ${row.retrieval.toFixed(6)} | ${row.difference.toExponential(2)} |`);
  const failed = !result.indexing.complete || result.indexing.failed > 0 || rows.some((row) => Math.abs(row.difference) > tolerance);
  if (failed) {
    console.error(
      `\nFAILED: ${result.indexing.complete ? '' : 'indexing incomplete; '}${result.indexing.problems
        .slice(0, 5)
        .map((problem) => problem.code)
        .join(', ')} metrics within ${tolerance}: ${rows.every((row) => Math.abs(row.difference) <= tolerance)}`,
    );
    process.exitCode = 1;
  }
} finally {
  await retriever.deleteIndex().catch(() => undefined);
  await client.close();
  await server?.close();
}
