const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * Continues a CRC-32 (IEEE 802.3, as zlib/gzip) over more bytes, like zlib's `crc32(crc, bytes)`:
 * `updateCrc32(updateCrc32(0, a), b) === computeCrc32(a ++ b)`.
 */
export function updateCrc32(previous: number, bytes: Uint8Array): number {
  let crc = (previous ^ 0xffffffff) >>> 0;
  for (let index = 0; index < bytes.length; index++) crc = (CRC_TABLE[(crc ^ (bytes[index] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** CRC-32 (IEEE 802.3, as zlib/gzip). */
export function computeCrc32(bytes: Uint8Array): number {
  return updateCrc32(0, bytes);
}
