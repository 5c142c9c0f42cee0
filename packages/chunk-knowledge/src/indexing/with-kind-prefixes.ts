import type { Embedder } from '@factkit/core';

/** E5's instruction prefixes (`query: ` / `passage: `), chosen by the embed request's `kind`. */
export const E5_PREFIXES = Object.freeze({ query: 'query: ', passage: 'passage: ' });

/**
 * Wraps an embedder so each text gets the prefix of the request's `kind` (E5-style models need `query: ` and
 * `passage: `). Passages are rendered without the prefix; the embedder adds it, so queries and passages can never
 * get the wrong one.
 */
export function withKindPrefixes(embedder: Embedder, prefixes: Readonly<{ query: string; passage: string }> = E5_PREFIXES): Embedder {
  return {
    ...embedder,
    id: `${embedder.id}+prefixes`,
    dimensions: embedder.dimensions,
    embed: (request) => embedder.embed({ ...request, texts: request.texts.map((text) => prefixes[request.kind] + text) }),
  };
}
