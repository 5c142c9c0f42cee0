import {
  addUsage,
  assertPositiveInteger,
  EMPTY_USAGE,
  evidenceOrigin,
  InvalidArgumentError,
  throwIfAborted,
  type Document,
  type Embedder,
  type Evidence,
  type Retriever,
  type RetrieveRequest,
  type RetrieveResult,
  type Usage,
  type ItemProblem,
} from '@factkit/core';
import type { FastTrackIndex } from '../index/fasttrack-index.js';
import { isSupporting, type JudgeCall, type SupportJudge, type SupportJudgement } from '../judge/support-judge.js';
import { createClusterMatcher, type ClusterMatcherOptions, type MatchedLeaf } from './cluster-matcher.js';
import type { FastTrackProblemCode } from '../problem-codes.js';

export interface FastTrackOptions extends ClusterMatcherOptions {
  /** One clustering, or several over the same documents (an ensemble: candidates are the union). */
  readonly index: FastTrackIndex | readonly FastTrackIndex[];
  readonly judge: SupportJudge;
  /** Embeds the query (kind 'query') for centroid matching and the fallback; must be the index's embedder. */
  readonly embedder?: Embedder;
}

/** A document judged to support the query. */
export interface SupportingDocument {
  readonly documentId: string;
  readonly text: string;
  /** Leaf path of the document in each clustering that retrieved it (`clustering` = ensemble position). */
  readonly clusterPaths: ReadonlyArray<{ clustering: number; leafId: number; path: readonly number[] }>;
}

/** What a query cost, next to judging every document (brute force). */
export interface TraceCost {
  /** Model calls made by the judge (0 for an NLI judge). */
  readonly llmCalls: number;
  readonly usage: Usage;
  readonly candidatesJudged: number;
  readonly keywordComparisons: number;
  readonly bruteForce: {
    readonly candidates: number;
    /** ceil(corpus / b): calls brute force needs at the same batch size. */
    readonly llmCalls: number;
    /** This query's tokens per judged candidate × corpus size (undefined when nothing was judged or no tokens were counted). */
    readonly estimatedTokens?: number;
  };
}

/**
 * What a trace problem means for the scores: `note` — a finding, not a failure (the query matched no cluster, so
 * nothing was judged); `unjudged` — the judge gave no verdict for one candidate; `failure` — the trace itself may have
 * missed documents (e.g. a leaf whose keyword call failed: `unlabelled-leaves`). Reports and CLIs use this instead of
 * comparing problem codes.
 */
export type TraceProblemKind = 'note' | 'unjudged' | 'failure';

/** The kind of every code this package emits (a new code does not compile until it is classified here). */
const TRACE_PROBLEM_KINDS: Readonly<Record<FastTrackProblemCode, TraceProblemKind>> = {
  'no-cluster-matched': 'note',
  unjudged: 'unjudged',
  'unlabelled-leaves': 'failure',
  'empty-query': 'failure',
  'empty-text': 'failure',
  'duplicate-text': 'failure',
  'empty-reply': 'failure',
  'missing-section': 'failure',
  'no-keywords': 'failure',
  'keyword-count': 'failure',
  'count-mismatch': 'failure',
  'non-numeric-score': 'failure',
  'out-of-range-score': 'failure',
  'no-label': 'failure',
  'trace-failed': 'failure',
  'judge-failed': 'failure',
  'retrieval-failed': 'failure',
  'call-failed': 'failure',
  'invalid-input': 'failure',
  'missing-reply': 'failure',
  'parse-failed': 'failure',
};

/** The {@link TraceProblemKind} of a problem in {@link TraceResult.problems}; a code this package does not emit is a `failure`. */
export function traceProblemKind(problem: { readonly code: string }): TraceProblemKind {
  return Object.hasOwn(TRACE_PROBLEM_KINDS, problem.code) ? TRACE_PROBLEM_KINDS[problem.code as FastTrackProblemCode] : 'failure';
}

export interface TraceResult {
  readonly query: string;
  readonly supporting: SupportingDocument[];
  /** Candidates (documents of the retrieved leaves, deduplicated across clusterings) with the judge's verdict. */
  readonly judgements: readonly SupportJudgement[];
  /** Candidates the judge could not decide (their judgement is `failed`); the trace is incomplete when any. */
  readonly unjudged: readonly string[];
  /**
   * Leaves (`clustering:leafId`) whose keyword call failed: they have no keywords, so the fuzzy match could not
   * consider them and any leaf could have ranked among the matched ones. The trace is incomplete when any.
   */
  readonly unlabelledLeaves: readonly string[];
  readonly clusters: readonly MatchedLeaf[];
  /** The judge's calls: analysis, raw reply, provenance. */
  readonly calls: readonly JudgeCall[];
  readonly cost: TraceCost;
  /** `no-cluster-matched`, one `unlabelled-leaves` when a leaf's keyword call failed, and one `unjudged` per candidate the judge could not decide. */
  readonly problems: ItemProblem<FastTrackProblemCode>[];
}

export interface FastTrack {
  /** Stage 1 only: the retrieved leaves and their documents (what a perfect judge would see). */
  candidates(query: string, options?: { abortSignal?: AbortSignal }): Promise<{ clusters: MatchedLeaf[]; documentIds: string[]; problems: ItemProblem<FastTrackProblemCode>[]; comparisons: number }>;
  /** Both stages. */
  trace(query: string, options?: { abortSignal?: AbortSignal }): Promise<TraceResult>;
  /** FastTrack as a core Retriever: evidence = supporting documents, score 1, in candidate order (cluster paths: `trace`). */
  readonly retriever: Retriever<FastTrackProblemCode>;
}

/**
 * The paper's online stage (Algorithm 1, lines 3–12): fuzzy-match the query against leaf keywords, collect the
 * documents of the matched leaves (union over an ensemble), judge them in batches, keep those scored 1.
 * @throws InvalidArgumentError when the ensemble's indexes do not share their documents.
 */
export function createFastTrack(options: FastTrackOptions): FastTrack {
  const { judge, embedder } = options;
  const indexes = Array.isArray(options.index) ? (options.index as readonly FastTrackIndex[]) : [options.index as FastTrackIndex];
  const where = 'createFastTrack';
  if (indexes.length === 0) throw new InvalidArgumentError({ where, argument: 'index', message: 'must hold at least one index' });
  const documents = (indexes[0] as FastTrackIndex).documents;
  for (const [position, index] of indexes.entries()) {
    if (index.documents.length !== documents.length || index.documents.some((document, row) => document.id !== (documents[row] as Document).id)) {
      throw new InvalidArgumentError({ where, argument: `index[${position}]`, message: 'must index the same documents in the same order as index[0]' });
    }
  }
  const matcher = createClusterMatcher(indexes, options);
  const needsEmbedding = (options.centroidLeaves ?? 0) > 0 || (options.fallback ?? 'centroid') === 'centroid';

  const candidates: FastTrack['candidates'] = async (query, candidateOptions = {}) => {
    const { abortSignal } = candidateOptions;
    throwIfAborted(abortSignal);
    let queryEmbedding: Float32Array | undefined;
    if (embedder && needsEmbedding) {
      const { embeddings } = await embedder.embed({ texts: [query], kind: 'query', ...(abortSignal ? { abortSignal } : {}) });
      queryEmbedding = embeddings[0];
    }
    const match = matcher.match(query, queryEmbedding ? { queryEmbedding } : {});
    const rows = new Set<number>();
    const documentIds: string[] = [];
    for (const leaf of match.leaves) {
      for (const row of (indexes[leaf.clustering] as FastTrackIndex).tree.nodes[leaf.leafId]?.members ?? []) {
        if (rows.has(row)) continue;
        rows.add(row);
        documentIds.push((documents[row] as Document).id);
      }
    }
    return { clusters: match.leaves, documentIds, problems: match.problems, comparisons: match.comparisons };
  };

  const rowById = new Map(documents.map((document, row) => [document.id, row]));
  // A leaf whose label call failed cannot be matched by keywords: every query's stage 1 ranks leaves over all
  // keywords, so any trace over such an index may have missed candidates (issue 21 §1: never a silent result).
  const unlabelledLeaves = indexes.flatMap((index, clustering) => index.tree.leaves.filter((leafId) => index.labels.get(leafId)?.status === 'failed').map((leafId) => `${clustering}:${leafId}`));

  const trace: FastTrack['trace'] = async (query, traceOptions = {}) => {
    const { abortSignal } = traceOptions;
    const stage1 = await candidates(query, traceOptions);
    const candidateDocuments = stage1.documentIds.map((documentId) => documents[rowById.get(documentId) as number] as Document);
    const judged = await judge.judge({ query, candidates: candidateDocuments.map((document) => ({ documentId: document.id, text: document.text })), ...(abortSignal ? { abortSignal } : {}) });
    const problems: ItemProblem<FastTrackProblemCode>[] = [...stage1.problems];
    if (unlabelledLeaves.length > 0) problems.push({ code: 'unlabelled-leaves', message: `${unlabelledLeaves.length} leaf cluster(s) have no keywords (their keyword call failed): the trace may have missed their documents` });
    const supporting: SupportingDocument[] = [];
    const unjudged: string[] = [];
    judged.judgements.forEach((judgement, position) => {
      if (judgement.status === 'failed') {
        unjudged.push(judgement.documentId);
        problems.push({ id: judgement.documentId, code: 'unjudged', message: judgement.problems.map((problem) => `${problem.code}: ${problem.message}`).join('; ') || 'the judge gave no verdict' });
      }
      if (!isSupporting(judgement)) return;
      const document = candidateDocuments[position] as Document;
      const row = rowById.get(document.id) as number;
      const clusterPaths = stage1.clusters
        .filter((leaf) => (indexes[leaf.clustering] as FastTrackIndex).tree.nodes[leaf.leafId]?.members?.includes(row))
        .map((leaf) => ({ clustering: leaf.clustering, leafId: leaf.leafId, path: leaf.path }));
      supporting.push({ documentId: document.id, text: document.text, clusterPaths });
    });
    const llmCalls = judged.calls.filter((call) => call.provenance !== undefined && !call.provenance.cached).length;
    const usage = judged.calls.reduce<Usage>((total, call) => addUsage(total, call.provenance?.usage), EMPTY_USAGE);
    const judgedCount = candidateDocuments.length;
    const cost: TraceCost = {
      llmCalls,
      usage,
      candidatesJudged: judgedCount,
      keywordComparisons: stage1.comparisons,
      bruteForce: {
        candidates: documents.length,
        llmCalls: judged.calls.some((call) => call.provenance !== undefined) ? Math.ceil(documents.length / judge.batchSize) : 0,
        ...(judgedCount > 0 && usage.totalTokens > 0 ? { estimatedTokens: Math.round((usage.totalTokens / judgedCount) * documents.length) } : {}),
      },
    };
    return { query, supporting, judgements: judged.judgements, unjudged, unlabelledLeaves, clusters: stage1.clusters, calls: judged.calls, cost, problems };
  };

  const retriever: Retriever<FastTrackProblemCode> = {
    id: `fasttrack(${judge.id})`,
    async retrieve(request: RetrieveRequest): Promise<RetrieveResult<FastTrackProblemCode>> {
      const { query, topK = 10, abortSignal } = request;
      if (!Number.isInteger(topK) || topK < 0) throw new InvalidArgumentError({ where: 'FastTrack.retriever.retrieve', argument: 'topK', message: `must be an integer >= 0 (got ${String(topK)})` });
      const text = typeof query?.text === 'string' ? query.text : '';
      if (text.trim().length === 0) return { evidence: [], problems: [{ code: 'empty-query', message: 'the query is empty: nothing to trace' }] };
      if (topK === 0) return { evidence: [] };
      const result = await trace(text, abortSignal ? { abortSignal } : {});
      const evidence: Evidence[] = result.supporting.slice(0, topK).map((supporting, position) => {
        const document = documents[rowById.get(supporting.documentId) as number] as Document;
        return {
          documentId: document.id,
          text: document.text,
          score: 1,
          rank: position + 1,
          origin: evidenceOrigin(document),
          ...(document.metadata === undefined ? {} : { metadata: document.metadata }),
        };
      });
      return { evidence, problems: result.problems };
    },
  };

  return { candidates, trace, retriever };
}
