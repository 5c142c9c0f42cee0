/**
 * One forward pass of the TF.js graph over token ids, fed as `@energetic-ai/embeddings`' `embed` feeds it (sparse
 * [row, position] indices and the ids, row-major), minus its tokenizer. Written once as JavaScript source because the
 * worker threads (`eval: true` workers, see worker-pool.ts) get it as text; the calling thread compiles the same text.
 */
export const GRAPH_PASS_SOURCE = `
async function runGraphPass(model, tensors, tokenIds) {
  const pick = (name) => (tensors[name] !== undefined ? tensors[name] : tensors.default[name]);
  let total = 0;
  for (const ids of tokenIds) total += ids.length;
  const indexData = new Int32Array(total * 2);
  const valueData = new Int32Array(total);
  let offset = 0;
  tokenIds.forEach((ids, row) => {
    ids.forEach((tokenId, position) => {
      indexData[offset * 2] = row;
      indexData[offset * 2 + 1] = position;
      valueData[offset++] = tokenId;
    });
  });
  const indices = pick('tensor2d')(indexData, [total, 2], 'int32');
  const values = pick('tensor1d')(valueData, 'int32');
  try {
    const output = await model.model.executeAsync({ indices, values });
    try {
      return await output.array();
    } finally {
      output.dispose();
    }
  } finally {
    indices.dispose();
    values.dispose();
  }
}`;

/** The loaded graph model, as `@energetic-ai/embeddings`' `initModel` returns it. */
export interface GraphModelHolder {
  readonly model: { executeAsync(inputs: Record<string, unknown>): Promise<{ array(): Promise<number[][]>; dispose(): void }>; dispose(): void };
}

/** `runGraphPass(model, tensors, tokenIds)` compiled from {@link GRAPH_PASS_SOURCE}; `tensors` is `@energetic-ai/core`. */
export const runGraphPass = new Function(`${GRAPH_PASS_SOURCE}\nreturn runGraphPass;`)() as (model: GraphModelHolder, tensors: unknown, tokenIds: readonly (readonly number[])[]) => Promise<number[][]>;
