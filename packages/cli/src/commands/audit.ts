import { access, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { QueryExpander } from '@factkit/core';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { createQuery2docExpander } from '@factkit/expansion';
import { type LeakageDataset, buildSciFactLeakageDataset, formatLeakageReport, runLeakageStudy } from '@factkit/nli-match';
import { createLexicalNliModel } from '@factkit/nli-models';
import { ENDPOINT_OPTIONS, connectLanguageModel, resolveEndpoint } from '../endpoint.js';
import { type CommandValues, defineCommand, integerFlag } from '../command.js';
import { createBm25Retriever, createRm3Expander } from '@factkit/retrieval';
import { loadBeirCorpus, loadBeirDataset, readJsonLines } from '@factkit/retrieval/node';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgress } from '../progress.js';
import { assertOutputsAreNotInputs, beirFiles } from '../read-input.js';
import { buildAuditReport } from '../report/audit-report.js';
import { writeStudyReportFiles } from '../report/study-report.js';
import type { CliIo } from '../cli-io.js';

export const AUDIT_USAGE = `usage: factkit audit --beir <folder> [--split test] [--unit sentence|abstract] [--limit 50] [--repeats 1] [--ks 5,10]
                     [--out report.md] [--svg chart.svg] [--html report.html] [--json]
                     [--base-url URL --model ID [--api-key KEY] [--cache-dir DIR]]
  The knowledge-leakage study (@factkit/nli-match runLeakageStudy) on a BEIR folder: each claim (query) is expanded,
  every generated sentence is matched against the claim's gold evidence by NLI, and BM25 retrieval with the expansion
  is compared between matched (leaked) and unmatched claims and against the bare claim.
  --unit sentence (the paper's setting; the default when the folder holds SciFact's rationale files
  corpus_sentences.jsonl[.gz] and claims_dev.jsonl / claims_train.jsonl for --split test / train): the knowledge
  store is every abstract sentence, the gold evidence is the claim's rationale sentences, claims without rationales
  are left out. --unit abstract (any other BEIR folder): the gold evidence is the claim's relevant documents.
  Offline: RM3 expansion (classical, no generation to leak) + lexical NLI; with an endpoint: Query2doc on --model.`;

const SCIFACT_CLAIM_FILES: Readonly<Record<string, string>> = { test: 'claims_dev.jsonl', train: 'claims_train.jsonl' };

async function firstExisting(folder: string, names: readonly string[]): Promise<string | undefined> {
  for (const name of names) {
    const path = join(folder, name);
    if (
      await access(path).then(
        () => true,
        () => false,
      )
    )
      return path;
  }
  return undefined;
}

async function readRows(path: string, abortSignal: AbortSignal | undefined): Promise<unknown[]> {
  const rows: unknown[] = [];
  for await (const { value } of readJsonLines(path, abortSignal ? { abortSignal } : {})) rows.push(value);
  return rows;
}

/** SciFact's rationale files in a BEIR folder for a split, when present (the paper's sentence-level setting). */
async function findSciFactRationales(folder: string, split: string) {
  const claimFile = SCIFACT_CLAIM_FILES[split];
  const claims = claimFile ? await firstExisting(folder, [claimFile, `${claimFile}.gz`]) : undefined;
  const sentences = await firstExisting(folder, ['corpus_sentences.jsonl', 'corpus_sentences.jsonl.gz']);
  return claims && sentences ? { claims, sentences } : undefined;
}

/** The study's dataset: SciFact at sentence level with rationale sentences as gold, or BEIR relevant documents as gold. */
async function loadAuditDataset(values: { beir: string; split: string; unit?: string | undefined }, limit: number, abortSignal: AbortSignal | undefined): Promise<{ dataset: LeakageDataset; unit: 'sentence' | 'abstract'; leftOut: number }> {
  const { beir: folder, split } = values;
  if (values.unit !== undefined && values.unit !== 'sentence' && values.unit !== 'abstract') throw new InvalidArgumentError({ where: 'factkit audit', argument: '--unit', message: `must be sentence or abstract (got "${values.unit}")` });
  const signal = abortSignal ? { abortSignal } : {};
  const rationales = values.unit === 'abstract' ? undefined : await findSciFactRationales(folder, split);
  if (values.unit === 'sentence' && !rationales) {
    throw new InvalidArgumentError({ where: 'factkit audit', argument: '--unit', message: `sentence needs SciFact's corpus_sentences.jsonl[.gz] and ${SCIFACT_CLAIM_FILES[split] ?? 'claims_<split>.jsonl'} in ${folder}` });
  }
  if (rationales) {
    const [claims, abstracts] = await Promise.all([readRows(rationales.claims, abortSignal), readRows(rationales.sentences, abortSignal)]);
    const { dataset, problems, leftOut } = buildSciFactLeakageDataset({ claims, abstracts, name: folder, limit });
    if (problems.length > 0)
      throw new InvalidArgumentError({
        where: 'factkit audit',
        argument: '--beir',
        message: `has malformed SciFact rows: ${problems
          .slice(0, 3)
          .map((problem) => problem.message)
          .join('; ')}`,
      });
    return { dataset, unit: 'sentence', leftOut };
  }
  const beir = await loadBeirDataset(folder, { split, ...signal });
  const corpus = await loadBeirCorpus(beir.corpusPath, signal);
  if (corpus.length === 0) throw new InvalidArgumentError({ where: 'factkit audit', argument: '--beir', message: `has an empty corpus (${beir.corpusPath}): no evidence to match or retrieve` });
  const seen = new Set<string>();
  for (const document of corpus) {
    // A BEIR corpus is strict (as for index --beir and eval): a repeated id is a corrupt dataset, exit 2.
    if (seen.has(document.id)) throw new CorruptDataError({ source: beir.corpusPath, message: `has duplicate document id "${document.id}"` });
    seen.add(document.id);
  }
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
  return { dataset: { name: folder, claims: claims.map((claim) => ({ id: claim.id as string, text: claim.text })), evidence, qrels, corpus }, unit: 'abstract', leftOut: 0 };
}

const AUDIT_OPTIONS = {
  beir: { type: 'string' },
  split: { type: 'string', default: 'test' },
  unit: { type: 'string' },
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
  if (!(await stat(values.beir).catch(() => undefined))?.isDirectory()) throw new InvalidArgumentError({ where: 'factkit audit', argument: '--beir', message: `names no folder (${values.beir})` });
  const integer = (name: string, text: string) => integerFlag('audit', name, text);
  const limit = integer('limit', values.limit);
  const repeats = integer('repeats', values.repeats);
  const ks = values.ks.split(',').map((k) => integer('ks', k.trim()));
  const signal = io.abortSignal ? { abortSignal: io.abortSignal } : {};
  await assertOutputsAreNotInputs(
    'audit',
    (['out', 'svg', 'html'] as const).map((name) => ({ flag: `--${name}`, path: values[name] })),
    [
      ...beirFiles(values.beir, values.split),
      ...Object.values(SCIFACT_CLAIM_FILES)
        .flatMap((name) => [name, `${name}.gz`])
        .map((name) => ({ flag: '--beir', path: join(values.beir as string, name) })),
    ],
  );
  const endpoint = resolveEndpoint('audit', values, io.env ?? {});
  const { dataset, unit, leftOut } = await loadAuditDataset({ beir: values.beir, split: values.split, unit: values.unit }, limit, io.abortSignal);
  const claims = dataset.claims;
  // A study over zero claims has no number: an empty input is bad input, never a report of dashes (issue 21 §2).
  if (claims.length === 0)
    throw new InvalidArgumentError({
      where: 'factkit audit',
      argument: '--beir',
      message: `has no claim to study in split "${values.split}"${leftOut > 0 ? ` (${leftOut} claim(s) without rationale sentences left out)` : ''} (${values.beir})`,
    });
  const retriever = createBm25Retriever(dataset.corpus ?? []);
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
    onProgress: ({ stage, completed, total }) => progress.update(completed, total, stage === 'baseline' ? 'baseline' : `${repeats} repeats`),
  });
  progress.end();
  const report = formatLeakageReport(result);
  if (values.out) {
    await mkdir(dirname(resolve(values.out)), { recursive: true });
    await writeFile(values.out, report);
  }
  if (values.svg || values.html) await writeStudyReportFiles({ svg: values.svg, html: values.html }, buildAuditReport({ result, dataset: values.beir, claims: claims.length, unit, markdown: report }));
  if (values.json)
    io.stdout(
      `${JSON.stringify({ dataset: values.beir, unit, claims: claims.length, claimsWithoutRationale: leftOut, expander: result.expanderId, nli: result.nliId, baseline: result.baseline, summary: result.summary, matchedProportion: result.matchedProportion, counts: result.counts, matchedClaims: [...new Set(result.runs.filter((run) => run.match?.matched === true).map((run) => run.claimId))], incomplete: result.incomplete, problems: result.problems.length }, null, 2)}\n`,
    );
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
