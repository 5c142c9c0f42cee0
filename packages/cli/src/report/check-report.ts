import type { CheckedClaim, DetectionResult, DetectionSummary } from '@factkit/claim-query';
import { failureReason, formatFactualPrecision, summarizeDetections } from '@factkit/claim-query';
import { escapeHtml } from './escape-html.js';
import { renderHtmlPage } from './html-page.js';

/** What the report says about the run, beside the results. */
export interface CheckReportOptions {
  /** Page title. @default 'factkit check' */
  readonly title?: string;
  /** Where the evidence came from (a corpus path or 'web search'). */
  readonly corpus?: string;
  /** When the report was made. @default new Date() */
  readonly generatedAt?: Date;
  /** Input lines that could not be checked (bad JSON, missing answer). */
  readonly inputProblems?: readonly { readonly line?: number; readonly code: string; readonly message: string }[];
  /** The run's summary. @default summarizeDetections(results) */
  readonly summary?: DetectionSummary;
}

const MODE_TEXT: Record<string, string> = {
  corpus: 'corpus (claims searched in the corpus)',
  context: "context (claims verified against the row's context passages)",
  reference: "reference (claims verified against the row's reference)",
};

/** The response label, or why there is none: 'abstained' with the abstaining sentence, 'failed at generation: refusal …'. */
function responseNote(result: DetectionResult): string {
  if (result.responseLabel === 'abstained') return `the answer ${result.abstention?.kind === 'refusal' ? 'refuses' : 'abstains'}: “${result.abstention?.sentence ?? ''}” — no claim checked, counted apart`;
  if (result.responseLabel) return `factual precision ${formatFactualPrecision(result)}`;
  const why = failureReason(result);
  return `failed at ${result.failedStage ?? result.status}${why ? ` (${why.code}: ${why.message})` : ''}; left out of every rate`;
}

const LABEL_TEXT: Record<string, string> = {
  hallucinated: 'hallucinated',
  'not-hallucinated': 'not hallucinated',
  unverifiable: 'unverifiable',
  correct: 'correct',
  abstained: 'abstained',
  entailment: 'entails',
  contradiction: 'contradicts',
  neutral: 'neutral',
};

function verdictLabel(claim: CheckedClaim): string {
  if (claim.verdict.status === 'failed') return 'failed';
  return claim.verdict.label ?? 'unreadable';
}

function badge(label: string, kind: string): string {
  return `<span class="badge ${kind}-${escapeHtml(label)}" data-${kind}="${escapeHtml(label)}">${escapeHtml(LABEL_TEXT[label] ?? label)}</span>`;
}

function safeHref(source: string): string | undefined {
  return /^https?:\/\/[^\s"'<>]+$/i.test(source) ? source : undefined;
}

function renderAnswer(result: DetectionResult): string {
  const parts: string[] = [];
  let position = 0;
  for (const sentence of [...result.sentences].sort((a, b) => a.start - b.start)) {
    if (sentence.start > position) parts.push(escapeHtml(result.answer.slice(position, sentence.start)));
    const label = sentence.incomplete ? 'incomplete' : sentence.label;
    parts.push(
      `<span class="sentence label-${escapeHtml(label)}" data-label="${escapeHtml(label)}" data-sentence="${sentence.index}" title="S${sentence.index + 1}: ${escapeHtml(LABEL_TEXT[label] ?? label)}">${escapeHtml(result.answer.slice(sentence.start, sentence.end))}</span>`,
    );
    position = Math.max(position, sentence.end);
  }
  if (position < result.answer.length) parts.push(escapeHtml(result.answer.slice(position)));
  return parts.join('');
}

function renderClaim(claim: CheckedClaim): string {
  const label = verdictLabel(claim);
  const verdict = claim.verdict;
  const snippets = claim.evidence
    .map((evidence, index) => {
      const { origin } = evidence;
      const where = origin.source?.url ?? origin.documentId;
      const href = safeHref(where);
      const source = href ? `<a href="${escapeHtml(href)}" rel="noreferrer noopener">${escapeHtml(where)}</a>` : escapeHtml(where);
      const score = Number.isFinite(evidence.score) ? ` · score ${evidence.score.toFixed(3)}` : '';
      // The verifier's judgement of this snippet (same rank), beside its text: label, probability, relevance, deciding mark.
      const judged = verdict.snippets?.find((snippet) => snippet.rank === index + 1);
      const mark = judged?.decisive ? '<strong class="decisive-mark">deciding</strong> ' : '';
      const judgement = judged?.label ? `${mark}${badge(judged.label, 'nli')}${judged.score === undefined ? '' : ` ${judged.score.toFixed(2)}`} ` : judged?.label === null ? `${mark}${badge('unreadable', 'nli')} ` : mark;
      const relevance = judged ? ` · claim-word overlap ${judged.overlap.toFixed(2)}${judged.relevant ? '' : ' · names none of the claim’s entities'}` : '';
      return `<li class="snippet${judged?.decisive ? ' decisive' : ''}" value="${index + 1}" data-rank="${index + 1}"${judged?.label ? ` data-nli="${escapeHtml(judged.label)}"` : ''}${judged?.decisive ? ' data-decisive="true"' : ''}>${judgement}${origin.title ? `<strong>${escapeHtml(origin.title)}</strong> ` : ''}${escapeHtml(evidence.text)}<div class="source">rank ${index + 1} · source: ${source}${score}${relevance}</div></li>`;
    })
    .join('');
  const reasoning = verdict.reasoning ? `<details class="reasoning"><summary>Reasoning</summary><pre>${escapeHtml(verdict.reasoning)}</pre></details>` : '';
  // Per-snippet NLI labels are shown beside each snippet; the raw list remains for verifiers that reply as a whole (the LLM).
  const raw =
    verdict.raw.length > 0 && !verdict.snippets?.some((snippet) => snippet.label !== undefined)
      ? `<details class="raw"><summary>Verifier output (${verdict.raw.length})</summary><ol>${verdict.raw.map((text) => `<li><pre>${escapeHtml(text)}</pre></li>`).join('')}</ol></details>`
      : '';
  const votes = verdict.votes
    ? `<div class="votes">votes: ${escapeHtml(
        Object.entries(verdict.votes)
          .map(([k, v]) => `${k} ${String(v)}`)
          .join(', '),
      )}</div>`
    : '';
  const provenance = verdict.provenance !== undefined ? `<details class="provenance"><summary>Provenance</summary><pre>${escapeHtml(JSON.stringify(verdict.provenance, null, 2))}</pre></details>` : '';
  const problems = [...claim.problems, ...verdict.problems];
  return `<li class="claim" data-verdict="${escapeHtml(label)}">
<div class="claim-text">${badge(label, 'verdict')} ${escapeHtml(claim.claim.text)}</div>
<div class="query">query: ${claim.query === undefined ? '<em>(none)</em>' : `<code>${escapeHtml(claim.query.text)}</code>`}</div>
${verdict.reason ? `<div class="reason">reason: ${escapeHtml(verdict.reason)}</div>` : ''}${verdict.why ? `<div class="reason why">why: ${escapeHtml(verdict.why)}</div>` : ''}<div class="verifier">verifier: <code>${escapeHtml(verdict.verifier)}</code>${typeof claim.similarity === 'number' ? ` · alignment cosine ${claim.similarity.toFixed(2)}` : ''}</div>
${votes}<details class="evidence"><summary>Evidence (${claim.evidence.length} snippet${claim.evidence.length === 1 ? '' : 's'})</summary>${snippets ? `<ol>${snippets}</ol>` : '<p><em>no snippets</em></p>'}</details>
${reasoning}${raw}${provenance}${problems.length > 0 ? `<ul class="problems">${problems.map((p) => `<li><code>${escapeHtml(p.code)}</code> ${escapeHtml(p.message)}</li>`).join('')}</ul>` : ''}
</li>`;
}

function renderItem(result: DetectionResult, position: number): string {
  const responseLabel = result.responseLabel ?? `undecided-${result.failedStage ?? result.status}`;
  const bySentence = result.sentences.map((sentence) => {
    const claims = result.claims.filter((claim) => claim.sentenceIndex === sentence.index);
    const label = sentence.incomplete ? 'incomplete' : sentence.label;
    return `<li class="sentence-block" data-label="${escapeHtml(label)}"><div>${badge(label, 'label')} <span class="sentence-text">S${sentence.index + 1}: ${escapeHtml(sentence.text)}</span></div>${claims.length > 0 ? `<ol class="claims">${claims.map(renderClaim).join('')}</ol>` : '<p class="no-claims"><em>no claim from this sentence</em></p>'}</li>`;
  });
  const unaligned = result.claims.filter((claim) => claim.sentenceIndex === undefined);
  const generation =
    result.generation.raw || result.generation.provenance !== undefined
      ? `<details class="provenance generation"><summary>Generation provenance (${escapeHtml(result.generatorId)})</summary>${(result.generation.raw ?? []).map((text) => `<pre>${escapeHtml(text)}</pre>`).join('')}${result.generation.provenance !== undefined ? `<pre>${escapeHtml(JSON.stringify(result.generation.provenance, null, 2))}</pre>` : ''}</details>`
      : '';
  return `<section class="item" id="item-${position}" data-id="${escapeHtml(result.id)}" data-response-label="${escapeHtml(responseLabel)}" data-status="${escapeHtml(result.status)}">
<h2>${escapeHtml(result.id)} ${badge(responseLabel, 'response')}</h2>
<dl><dt>Question</dt><dd class="question">${result.question ? escapeHtml(result.question) : '<em>(none)</em>'}</dd>
<dt>Answer</dt><dd class="answer">${renderAnswer(result)}</dd>
<dt>Mode</dt><dd class="mode" data-mode="${escapeHtml(result.mode)}">${escapeHtml(MODE_TEXT[result.mode] ?? result.mode)}</dd>
<dt>Verdict</dt><dd class="response-note">${escapeHtml(responseNote(result))}</dd>
<dt>Pipeline</dt><dd class="pipeline"><code>${escapeHtml(result.generatorId)}</code> → <code>${escapeHtml(result.retrieverId)}</code> → <code>${escapeHtml(result.verifierId)}</code> · language ${escapeHtml(result.language)} · status ${escapeHtml(result.status)}</dd></dl>
${result.noClaims ? '<p class="no-claims"><em>No claims to check.</em></p>' : ''}<h3>Sentences, claims, queries, evidence and verdicts</h3>
<ol class="sentences">${bySentence.join('')}</ol>
${unaligned.length > 0 ? `<h3>Claims not aligned to a sentence</h3><ol class="claims unaligned">${unaligned.map(renderClaim).join('')}</ol>` : ''}${generation}
${result.problems.length > 0 ? `<h3>Problems</h3><ul class="problems">${result.problems.map((p) => `<li><code>${escapeHtml(p.code)}</code> ${escapeHtml(p.message)}</li>`).join('')}</ul>` : ''}
</section>`;
}

/**
 * Renders `factkit check` results as one self-contained HTML page (inline CSS, no script, no external asset; works
 * from file://): each answer with its sentences coloured by label, then per sentence its claims, queries, evidence
 * snippets with sources, verdicts with reasoning and provenance in expandable <details>. Every string that came from
 * the input, a model or the corpus is HTML-escaped.
 * @example await writeFile('report.html', renderCheckReport(results, { corpus: 'corpus.jsonl' }))
 */
export function renderCheckReport(results: readonly DetectionResult[], options: CheckReportOptions = {}): string {
  const { title = 'factkit check', corpus, generatedAt = new Date(), inputProblems = [] } = options;
  const summary = options.summary ?? summarizeDetections(results);
  const counts = new Map<string, number>();
  for (const result of results) {
    const key = result.responseLabel ?? `undecided (${result.failedStage ?? result.status})`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const precision = summary.factualPrecision;
  const runLine = `<p class="run-summary">modes: corpus ${summary.modes.corpus} · context ${summary.modes.context} · reference ${summary.modes.reference} · abstained ${summary.labels.abstained} · failed ${summary.failed} · factual precision ${
    precision.mean === null ? `n/a (no answer has a verifiable claim)` : `${precision.mean.toFixed(3)} (mean over ${precision.responses} answer${precision.responses === 1 ? '' : 's'} with a verifiable claim; n/a for ${precision.without})`
  }</p>`;
  const summaryRows = results
    .map(
      (result, position) =>
        `<tr><td><a href="#item-${position}">${escapeHtml(result.id)}</a></td><td>${badge(result.responseLabel ?? `undecided-${result.failedStage ?? result.status}`, 'response')}</td><td>${escapeHtml(result.mode)}</td><td>${result.factualPrecision === null ? 'n/a' : result.factualPrecision.toFixed(3)}</td><td>${result.claimCounts.unverifiable}</td><td>${result.claims.length}</td><td>${result.claims.filter((c) => c.verdict.status === 'ok' && c.verdict.label === 'hallucinated').length}</td><td>${escapeHtml(result.status)}</td></tr>`,
    )
    .join('');
  const body = `<header><h1>${escapeHtml(title)}</h1>
<p class="meta">${results.length} answer${results.length === 1 ? '' : 's'} checked${corpus ? ` against <code>${escapeHtml(corpus)}</code>` : ''} · ${escapeHtml(generatedAt.toISOString())} · ${[...counts].map(([k, v]) => `${escapeHtml(k)}: ${v}`).join(' · ')}</p>
${runLine}
<p class="legend">${badge('not-hallucinated', 'label')} ${badge('hallucinated', 'label')} ${badge('unverifiable', 'label')} ${badge('incomplete', 'label')}</p></header>
${results.length > 1 ? `<table class="summary"><thead><tr><th>id</th><th>response</th><th>mode</th><th>factual precision</th><th>unverifiable claims</th><th>claims</th><th>hallucinated claims</th><th>status</th></tr></thead><tbody>${summaryRows}</tbody></table>` : ''}
${inputProblems.length > 0 ? `<section class="input-problems"><h2>Input lines not checked</h2><ul class="problems">${inputProblems.map((p) => `<li>${p.line === undefined ? '' : `line ${p.line}: `}<code>${escapeHtml(p.code)}</code> ${escapeHtml(p.message)}</li>`).join('')}</ul></section>` : ''}
${results.map(renderItem).join('\n')}`;
  return renderHtmlPage({ title, body });
}
