// What one model's run writes: report.md, the SVG plot and results.json (provenance plus every claim × repeat run).
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { formatStudyPlot, formatStudyReport, incompleteReasons, type MethodResult, type ReportContext } from './report-markdown.js';

const require = createRequire(import.meta.url);

/** Versions of the factkit packages the study ran on (for results.json). */
export function packageVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of ['@factkit/core', '@factkit/expansion', '@factkit/metrics', '@factkit/nli-match', '@factkit/openai', '@factkit/retrieval', '@factkit/use-lite']) {
    try {
      versions[name] = (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      versions[name] = 'unknown';
    }
  }
  return versions;
}

/** SHA-256 of every dataset file read (for results.json). */
export async function hashFiles(paths: readonly string[]): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const path of paths)
    hashes[path] = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
  return hashes;
}

/** Writes report.md, leakage-study.svg and results.json into `directory`; returns their paths. */
export async function writeStudyOutput(directory: string, results: readonly MethodResult[], context: ReportContext, provenance: Record<string, unknown>): Promise<{ reportPath: string; plotPath: string; resultsPath: string }> {
  await mkdir(directory, { recursive: true });
  const reportPath = join(directory, 'report.md');
  const plotPath = join(directory, 'leakage-study.svg');
  const resultsPath = join(directory, 'results.json');
  await writeFile(reportPath, formatStudyReport(results, context));
  await writeFile(plotPath, formatStudyPlot(results, { datasetName: context.datasetName }));
  const methods = results.map(({ method, baselineName, matching, result }) => ({
    method,
    baselineName,
    matching,
    ...result,
    baselineRuns: result.baselineRuns?.map((run) => ({ claimId: run.claimId, retrieved: run.retrieved, metrics: run.metrics, verdicts: run.verdicts ?? null, problems: run.problems })),
    runs: result.runs.map((run) => ({
      claimId: run.claimId,
      sample: run.sample,
      generations: run.generations,
      provenance: run.provenance ?? null,
      retrieved: run.retrieved,
      metrics: run.metrics,
      verdicts: run.verdicts ?? null,
      matched: run.match?.matched ?? null,
      sentences: run.match?.sentences ?? [],
      nliLabels: run.match?.labels ?? [],
      entailingPairs: run.match?.entailingPairs ?? [],
      removedSentences: run.match?.removedSentences ?? [],
      problems: run.problems,
    })),
  }));
  await writeFile(resultsPath, `${JSON.stringify({ provenance: { ...provenance, incomplete: incompleteReasons(results, context) }, methods }, null, 1)}\n`);
  return { reportPath, plotPath, resultsPath };
}

/** Failed items of one model's methods: expansions, unknown matches, retrievals, verdicts and whole claim runs. */
export function countFailures(results: readonly MethodResult[]): number {
  return results.reduce((sum, { result }) => {
    const { counts } = result;
    const claimFailures = [...(result.baselineRuns ?? []), ...result.runs].filter((run) => run.failedStage === 'claim').length;
    return sum + counts.expansionFailed + counts.unknown + counts.retrievalFailed + counts.verdictFailed + claimFailures;
  }, 0);
}
