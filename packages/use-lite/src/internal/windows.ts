/**
 * Long texts: USE-lite reads at most 128 SentencePiece pieces (its graph clips the rest away). A longer text is cut
 * into windows of 128 pieces that overlap by 32 (each window starts 96 pieces after the previous one; the last one
 * ends at the text's last piece), each window is embedded like a text of its own, and the text's vector is the mean
 * of its window vectors, L2-normalised. A text of at most 128 pieces is one window: its vector is the model's, bit for
 * bit. Work is linear in length (one tokenizer pass, one forward pass per 96 pieces).
 */

/** Pieces per window: the model's own input limit (ClipToMaxLength in the TF.js graph). */
export const WINDOW_TOKENS = 128;
/** Pieces shared by consecutive windows. */
export const WINDOW_OVERLAP = 32;

/** The windows of one token sequence: the sequence itself when it fits one window. */
export function windowsOf(ids: readonly number[], size = WINDOW_TOKENS, overlap = WINDOW_OVERLAP): (readonly number[])[] {
  if (ids.length <= size) return [ids];
  const stride = size - overlap;
  const windows: (readonly number[])[] = [];
  for (let start = 0; ; start += stride) {
    if (start + size >= ids.length) {
      windows.push(ids.slice(Math.max(0, ids.length - size)));
      return windows;
    }
    windows.push(ids.slice(start, start + size));
  }
}

/** Mean of unit vectors, L2-normalised (float64 sums); a single vector is returned as it is. */
export function poolWindows(vectors: readonly Float32Array[]): Float32Array {
  if (vectors.length === 1) return vectors[0] as Float32Array;
  const dimensions = (vectors[0] as Float32Array).length;
  const sum = new Float64Array(dimensions);
  for (const vector of vectors) for (let column = 0; column < dimensions; column++) sum[column] = (sum[column] as number) + (vector[column] as number);
  let squares = 0;
  for (let column = 0; column < dimensions; column++) squares += (sum[column] as number) ** 2;
  const norm = Math.sqrt(squares);
  const out = new Float32Array(dimensions);
  // Opposite windows can cancel out exactly; then the (zero) mean has no direction and the first window stands in.
  if (norm === 0) return Float32Array.from(vectors[0] as Float32Array);
  for (let column = 0; column < dimensions; column++) out[column] = (sum[column] as number) / norm;
  return out;
}
