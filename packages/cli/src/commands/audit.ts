import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { QueryExpander } from '@factkit/core';
import { createQuery2docExpander } from '@factkit/expansion';
import { type LeakageDataset, formatLeakageReport, runLeakageStudy } from '@factkit/nli-match';
import { createLexicalNliModel } from '@factkit/nli-models';
import { ENDPOINT_OPTIONS, connectLanguageModel, resolveEndpoint } from '../endpoint.js';
import { type CommandValues, defineCommand, integerFlag } from '../command.js';
import { createBm25Retriever, createRm3Expander } from '@factkit/retrieval';
import { loadBeirCorpus, loadBeirDataset } from '@factkit/retrieval/node';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgress } from '../progress.js';
import { renderBarChartSvg } from '../report/bar-chart.js';
import { writeStudyReportFiles } from '../report/study-report.js';
import type { CliIo } from '../cli-io.js';

export const AUDIT_USAGE = `usage: factkit audit --beir <folder> [--split test] [--limit 50] [--repeats 1] [--ks 5,10] [--out report.md] [--svg chart.svg] [--html report.html] [--json]
                     [--base-url URL --model ID [--api-key KEY] [--cache-dir DIR]]
  The knowledge-leakage study (@factkit/nli-match runLeakageStudy) on a BEIR folder: each claim (query) is expanded,
  every generated sentence is matched against the claim's gold evidence (relevant documents) by NLI, and BM25
  retrieval with the expansion is compared between matched (leaked) and unmatched claims and against the bare claim.
  Offline: RM3 expansion (classical, no generation to leak) + lexical NLI; with an endpoint: Query2doc on --model.`;

const AUDIT_OPTIONS = {
  beir: { type: 'string' },
  split: { type: 'string', default: 'test' },
  limit: { type: 'string', default: '50' },
  repeats: { type: 'string', default: '1' },
  ks: { type: 'string', default: '5,10' },
  out: { type: 'string' },
  html: { type: 'string' },
  svg: { type: 'string' },
  json: { type: 'boolean', default: false },
  ...ENDPOINT_OPTIONS,
} as const;

/** `factkit audit`: runs the leakage study on a BEIR folder and prints its Markdown report. Returns the exit code. */
async function runAudit(values: CommandValues<typeof AUDIT_OPTIONS>, io: CliIo): Promise<number> {
  if (!values.beir) {
    io.stderr(`factkit audit: give --beir <folder>\n${AUDIT_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const integer = (name: string, text: string) => integerFlag('audit', name, text);
  const limit = integer('limit', values.limit);
  const repeats = integer('repeats', values.repeats);
  const ks = values.ks.split(',').map((k) => integer('ks', k.trim()));
  const signal = io.abortSignal ? { abortSignal: io.abortSignal } : {};
  const beir = await loadBeirDataset(values.beir, { split: values.split, ...signal });
  const corpus = await loadBeirCorpus(beir.corpusPath, signal);
  const byId = new Map(corpus.map((document) => [document.id, document]));
  const claims = beir.queries.slice(0, limit);
  const evidence: Record<string, string[]> = {};
  const qrels: Record<string, Record<string, number>> = {};
  for (const claim of claims) {
    const id = claim.id as string;
    qrels[id] = { ...beir.qrels[id] };
    evidence[id] = Object.entries(beir.qrels[id] ?? {})
      .filter(([, relevance]) => relevance > 0)
      .map(([documentId]) => byId.get(documentId)?.text)
      .filter((text): text is string => typeof text === 'string');
  }
  const dataset: LeakageDataset = { name: values.beir, claims: claims.map((claim) => ({ id: claim.id as string, text: claim.text })), evidence, qrels, corpus };
  const retriever = createBm25Retriever(corpus);
  const endpoint = resolveEndpoint('audit', values, io.env ?? {});
  let expander: QueryExpander = createRm3Expander({ index: retriever.index });
  if (endpoint) expander = createQuery2docExpander({ model: connectLanguageModel(endpoint, 'audit') });
  const progress = createProgress(io, 'audit');
  const result = await runLeakageStudy({
    dataset,
    retriever,
    expander,
    nli: createLexicalNliModel(),
    repeats,
    ks,
    ...signal,
    onProgress: ({ stage, repeat, completed, total }) => progress.update(completed, total, stage === 'baseline' ? 'baseline' : `repeat ${(repeat ?? 0) + 1}/${repeats}`),
  });
  progress.end();
  const report = formatLeakageReport(result);
  if (values.out) {
    await mkdir(dirname(resolve(values.out)), { recursive: true });
    await writeFile(values.out, report);
  }
  if (values.svg || values.html) {
    // Baseline vs ALL / M / ¬M per metric, mean ± SE over repeats.
    const baselineName = `${result.retrieverId} (claim only)`;
    const svg = renderBarChartSvg({
      title: `Leakage study: ${values.beir}`,
      groups: result.metricNames.map((metric) => {
        const summary = result.summary[metric];
        const bar = (label: string, value: { mean: number; standardError: number } | null | undefined) => ({ label, value: value ? value.mean : null, ...(value ? { error: value.standardError } : {}) });
        return { label: metric, bars: [{ label: baselineName, value: result.baseline?.[metric] ?? null }, bar(`${result.expanderId} ALL`, summary?.all), bar('M (matched)', summary?.matched), bar('¬M (unmatched)', summary?.unmatched)] };
      }),
    });
    await writeStudyReportFiles({ svg: values.svg, html: values.html }, { title: 'factkit audit', meta: `${values.beir} · ${claims.length} claims · expander ${result.expanderId} · NLI ${result.nliId}`, charts: [svg], markdown: report });
  }
  if (values.json) io.stdout(`${JSON.stringify({ dataset: values.beir, claims: claims.length, expander: result.expanderId, nli: result.nliId, baseline: result.baseline, summary: result.summary, matchedProportion: result.matchedProportion, counts: result.counts, incomplete: result.incomplete, problems: result.problems.length }, null, 2)}\n`);
  else io.stdout(report.endsWith('\n') ? report : `${report}\n`);
  if (result.incomplete.length > 0) {
    io.stderr(`factkit audit: incomplete numbers: ${result.incomplete.join('; ')}\n`);
    return EXIT_CODES.partialFailure;
  }
  return EXIT_CODES.ok;
}

export const auditCommand = defineCommand({
  name: 'audit',
  summary: 'knowledge-leakage study of query expansion on a BEIR folder (@factkit/nli-match)',
  usage: AUDIT_USAGE,
  options: AUDIT_OPTIONS,
  run: runAudit,
});
