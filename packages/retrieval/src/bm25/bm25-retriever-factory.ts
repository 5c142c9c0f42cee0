import type { Document, Evidence, FieldedDocument, RetrieveRequest, RetrieveResult, Retriever, RetrieverFactory } from '@factkit/core';
import { InvalidArgumentError, throwIfAborted } from '@factkit/core';
import { createBm25Index } from './bm25-index.js';
import { type Bm25RetrieverOptions, createBm25Retriever } from './bm25-retriever.js';

/** BM25 settings of the factory's indexes (analyzer, k1, b, variant, length encoding, strategy); fields come per request. */
export type Bm25RetrieverFactoryOptions = Omit<Bm25RetrieverOptions, 'fields' | 'fieldText' | 'storeDocuments'>;

function fieldValue(document: FieldedDocument, field: string): string {
  const value = document.fields[field];
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value.join(' ');
  throw new InvalidArgumentError({ where: 'Bm25RetrieverFactory.createRetriever', argument: `documents["${document.id}"].fields.${field}`, message: 'must be a string or an array of strings' });
}

/**
 * A core `RetrieverFactory` over fielded BM25: each request's documents are indexed with one field per named field of
 * positive weight (own length statistics; score = Σ weight × BM25 of the field), and hits carry the fielded document's
 * `text`, `origin` and `metadata`. How chunk-knowledge and other paper packages get BM25 without a copy of it.
 * @throws InvalidArgumentError (from `createRetriever`) for no positive weight, duplicate ids or malformed fields.
 * @example const factory = createBm25RetrieverFactory({ k1: 0.9, b: 0.4 }); const retriever = await factory.createRetriever({ documents, fields: { title: 1, chunk: 1 } })
 */
export function createBm25RetrieverFactory(options: Bm25RetrieverFactoryOptions = {}): RetrieverFactory {
  const { strategy, ...indexOptions } = options;
  const k1 = indexOptions.k1 ?? 0.9;
  const b = indexOptions.b ?? 0.4;
  return {
    id: `bm25-fields(k1=${k1},b=${b}${indexOptions.analyzer ? `,${indexOptions.analyzer.id}` : ''})`,
    async createRetriever({ documents, fields, abortSignal }) {
      const where = 'Bm25RetrieverFactory.createRetriever';
      throwIfAborted(abortSignal);
      if (!Array.isArray(documents)) throw new InvalidArgumentError({ where, argument: 'documents', message: 'must be an array of FieldedDocument' });
      if (typeof fields !== 'object' || fields === null) throw new InvalidArgumentError({ where, argument: 'fields', message: 'must be weights per field name' });
      const weights: Record<string, number> = {};
      for (const [name, weight] of Object.entries(fields)) {
        if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) throw new InvalidArgumentError({ where, argument: `fields.${name}`, message: `must be a finite number >= 0 (got ${String(weight)})` });
        if (weight > 0) weights[name] = weight;
      }
      if (Object.keys(weights).length === 0) throw new InvalidArgumentError({ where, argument: 'fields', message: 'must give at least one field a weight > 0' });
      const byId = new Map<string, FieldedDocument>();
      const indexed: Document[] = documents.map((document, position) => {
        if (typeof document !== 'object' || document === null || typeof document.fields !== 'object' || document.fields === null || typeof document.text !== 'string' || typeof document.origin?.documentId !== 'string') {
          throw new InvalidArgumentError({ where, argument: `documents[${position}]`, message: 'must be a FieldedDocument { id, fields, text, origin }' });
        }
        byId.set(document.id, document);
        return { id: document.id, text: document.text };
      });
      const index = createBm25Index({ ...indexOptions, fields: weights, fieldText: (document, field) => fieldValue(byId.get(document.id)!, field), storeDocuments: false, documents: indexed });
      const bm25 = createBm25Retriever(index, strategy === undefined ? {} : { strategy });
      const retriever: Retriever = {
        id: `${bm25.id}[${Object.entries(weights)
          .map(([name, weight]) => `${name}:${weight}`)
          .join(',')}]`,
        async retrieve(request: RetrieveRequest): Promise<RetrieveResult> {
          const result = await bm25.retrieve(request);
          const evidence: Evidence[] = result.evidence.map((hit) => {
            const document = byId.get(hit.documentId)!;
            return {
              documentId: document.id,
              text: document.text,
              score: hit.score,
              ...(hit.rank === undefined ? {} : { rank: hit.rank }),
              origin: document.origin,
              ...(document.metadata === undefined ? {} : { metadata: document.metadata }),
            };
          });
          return result.problems ? { evidence, problems: result.problems } : { evidence };
        },
      };
      return retriever;
    },
  };
}
