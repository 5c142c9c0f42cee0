// The page: fetches the prebuilt SciFact BM25 index (bytes written by src/build.ts with serializeBm25Index), searches
// it as the user types a claim, highlights the query's terms in the ranked abstracts, and evaluates the shipped SciFact
// test claims with @factkit/metrics. Everything runs in the page; the server only serves files.
import type { Run } from '@factkit/core';
import { evaluateRun } from '@factkit/metrics';
import { type Bm25Index, type Bm25Retriever, createBm25Retriever, deserializeBm25Index } from '@factkit/retrieval';
import { highlightTerms } from './highlight.js';
import { EVALUATION_DEPTH, EVALUATION_FILE, type EvaluationData, INDEX_FILE, MEASURES, RESULTS_SHOWN } from './settings.js';

/** Read by the browser test and the report script (milliseconds since navigation start). */
interface PageTimings {
  scriptStart: number;
  indexFetched?: number;
  indexReady?: number;
  firstResult?: number;
  evaluationDone?: number;
  indexBytes?: number;
  deserializeMs?: number;
  firstSearchMs?: number;
  evaluationMs?: number;
}

declare global {
  interface Window {
    factkitTimings: PageTimings;
  }
}

const MEASURE_LABELS: Record<(typeof MEASURES)[number], string> = { ndcg_cut_10: 'nDCG@10', recall_100: 'Recall@100', map: 'MAP' };

const timings: PageTimings = { scriptStart: performance.now() };
window.factkitTimings = timings;

const element = <T extends HTMLElement>(id: string): T => {
  const found = document.getElementById(id);
  if (!found) throw new Error(`page is missing #${id}`);
  return found as T;
};
const statusLine = element<HTMLParagraphElement>('status');
const form = element<HTMLFormElement>('search');
const input = element<HTMLInputElement>('query');
const results = element<HTMLOListElement>('results');
const evaluation = element<HTMLElement>('evaluation');
const timingList = element<HTMLDListElement>('timings');

function setStatus(text: string, state: string): void {
  statusLine.textContent = text;
  statusLine.dataset.state = state;
}

function appendHighlighted(parent: HTMLElement, text: string, terms: ReadonlySet<string>, index: Bm25Index): void {
  for (const segment of highlightTerms(text, terms, index.analyzer)) {
    if (segment.hit) {
      const mark = document.createElement('mark');
      mark.textContent = segment.text;
      parent.append(mark);
    } else parent.append(segment.text);
  }
}

async function showResults(retriever: Bm25Retriever, text: string): Promise<number> {
  const started = performance.now();
  const { evidence, problems } = await retriever.retrieve({ query: { text }, topK: RESULTS_SHOWN });
  const searchMs = performance.now() - started;
  const terms = new Set(retriever.index.analyzer.analyze(text));
  results.replaceChildren();
  for (const [position, hit] of evidence.entries()) {
    const item = document.createElement('li');
    item.className = 'result';
    item.dataset.id = hit.documentId;
    item.dataset.score = String(hit.score);
    const stored = retriever.index.getDocument(hit.documentId);
    const heading = document.createElement('h3');
    heading.append(`${position + 1}. `);
    appendHighlighted(heading, stored?.title ?? hit.documentId, terms, retriever.index);
    const meta = document.createElement('p');
    meta.className = 'meta';
    meta.textContent = `document ${hit.documentId} · BM25 ${hit.score.toFixed(4)}`;
    const body = document.createElement('p');
    body.className = 'abstract';
    appendHighlighted(body, stored?.text ?? hit.text, terms, retriever.index);
    item.append(heading, meta, body);
    results.append(item);
  }
  results.dataset.query = text;
  const note = problems?.map((problem) => problem.message).join('; ');
  setStatus(evidence.length > 0 ? `${evidence.length} of ${retriever.index.documentCount.toLocaleString('en')} abstracts in ${searchMs.toFixed(1)} ms` : `no results${note ? ` (${note})` : ''}`, 'ready');
  return searchMs;
}

function renderTimings(): void {
  const rows: [string, string][] = [];
  const ms = (value: number | undefined) => (value === undefined ? '…' : `${value.toFixed(0)} ms`);
  rows.push(['index fetched', `${ms(timings.indexFetched)}${timings.indexBytes ? ` (${(timings.indexBytes / 1e6).toFixed(1)} MB)` : ''}`]);
  rows.push(['index ready (deserialized)', `${ms(timings.indexReady)} (${ms(timings.deserializeMs)} to deserialize)`]);
  if (timings.firstResult !== undefined) rows.push(['first result', `${ms(timings.firstResult)} (search ${timings.firstSearchMs?.toFixed(1)} ms)`]);
  if (timings.evaluationMs !== undefined) rows.push(['evaluation', ms(timings.evaluationMs)]);
  timingList.replaceChildren(
    ...rows.flatMap(([term, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = value;
      return [dt, dd];
    }),
  );
}

async function evaluate(retriever: Bm25Retriever, data: EvaluationData): Promise<void> {
  const progress = evaluation.querySelector('progress') ?? document.createElement('progress');
  progress.max = data.queries.length;
  evaluation.append(progress);
  evaluation.dataset.state = 'running';
  const started = performance.now();
  const run: Record<string, Record<string, number>> = {};
  for (const [position, query] of data.queries.entries()) {
    const { evidence } = await retriever.retrieve({ query: { text: query.text }, topK: EVALUATION_DEPTH });
    run[query.id] = Object.fromEntries(evidence.map((hit) => [hit.documentId, hit.score]));
    if (position % 25 === 24) {
      progress.value = position + 1;
      await new Promise((resolve) => setTimeout(resolve, 0)); // let the page paint and stay responsive
    }
  }
  const result = evaluateRun(data.qrels, run as Run, { metrics: [...MEASURES] });
  timings.evaluationMs = performance.now() - started;
  timings.evaluationDone = performance.now();
  progress.remove();
  const table = document.createElement('table');
  const header = table.createTHead().insertRow();
  for (const title of ['measure', `${data.dataset} ${data.split} (${result.evaluatedQueries.length} claims)`]) header.append(Object.assign(document.createElement('th'), { textContent: title }));
  const body = table.createTBody();
  for (const measure of MEASURES) {
    const value = result.aggregate[measure];
    const row = body.insertRow();
    row.dataset.measure = measure;
    row.dataset.value = String(value);
    row.insertCell().textContent = MEASURE_LABELS[measure];
    row.insertCell().textContent = value === undefined ? 'n/a' : value.toFixed(4);
  }
  evaluation.append(table);
  evaluation.dataset.state = 'done';
  renderTimings();
}

async function main(): Promise<void> {
  setStatus('loading the SciFact index…', 'loading');
  const [indexResponse, evaluationResponse] = await Promise.all([fetch(INDEX_FILE), fetch(EVALUATION_FILE)]);
  if (!indexResponse.ok) throw new Error(`cannot fetch ${INDEX_FILE} (HTTP ${indexResponse.status})`);
  if (!evaluationResponse.ok) throw new Error(`cannot fetch ${EVALUATION_FILE} (HTTP ${evaluationResponse.status})`);
  const bytes = new Uint8Array(await indexResponse.arrayBuffer());
  const data = (await evaluationResponse.json()) as EvaluationData;
  timings.indexFetched = performance.now();
  timings.indexBytes = bytes.byteLength;
  const index = deserializeBm25Index(bytes, { source: INDEX_FILE });
  timings.indexReady = performance.now();
  timings.deserializeMs = timings.indexReady - timings.indexFetched;
  const retriever = createBm25Retriever(index);
  renderTimings();
  setStatus(`${index.documentCount.toLocaleString('en')} abstracts indexed; type a claim`, 'ready');
  input.disabled = false;

  let latest = 0;
  const search = async (text: string) => {
    const ticket = ++latest;
    if (text.trim().length === 0) {
      results.replaceChildren();
      results.dataset.query = text;
      return;
    }
    const searchMs = await showResults(retriever, text);
    if (ticket === latest && timings.firstResult === undefined) {
      timings.firstResult = performance.now();
      timings.firstSearchMs = searchMs;
      performance.mark('first-result');
      renderTimings();
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void search(input.value);
  });
  input.addEventListener('input', () => void search(input.value));

  // ?q=<claim> searches right away: the report measures time to first result this way.
  const initial = new URLSearchParams(location.search).get('q');
  if (initial) {
    input.value = initial;
    await search(initial);
  }
  // Yield once so the first paint happens before the evaluation starts.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await evaluate(retriever, data);
}

main().catch((error: unknown) => {
  setStatus(`failed: ${error instanceof Error ? error.message : String(error)}`, 'error');
  evaluation.dataset.state = 'error';
});
