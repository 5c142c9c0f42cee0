/** Append-only typed arrays that double when full (index build buffers). */
export class GrowableUint32 {
  private data: Uint32Array;
  length = 0;
  constructor(initialCapacity = 1024) {
    this.data = new Uint32Array(Math.max(16, initialCapacity));
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  get(index: number): number {
    return this.data[index] as number;
  }
  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
  clear(): void {
    this.data = new Uint32Array(16);
    this.length = 0;
  }
}

/**
 * An append-only array of non-negative integers in the narrowest of Uint8/Uint16/Uint32 that holds every value so far
 * (term frequencies: almost always one byte each).
 */
export class GrowableUint {
  private data: Uint8Array | Uint16Array | Uint32Array;
  private limit: number;
  length = 0;
  constructor(initialCapacity = 1024) {
    this.data = new Uint8Array(Math.max(16, initialCapacity));
    this.limit = 256;
  }
  push(value: number): void {
    if (value >= this.limit || this.length === this.data.length) {
      const wide = value >= this.limit ? (value < 65536 ? 2 : 4) : this.data.BYTES_PER_ELEMENT;
      const capacity = this.length === this.data.length ? this.data.length * 2 : this.data.length;
      const next = wide === 1 ? new Uint8Array(capacity) : wide === 2 ? new Uint16Array(capacity) : new Uint32Array(capacity);
      next.set(this.data.subarray(0, this.length));
      this.data = next;
      this.limit = wide === 1 ? 256 : wide === 2 ? 65536 : 2 ** 32;
    }
    this.data[this.length++] = value;
  }
  view(): Uint8Array | Uint16Array | Uint32Array {
    return this.data.subarray(0, this.length);
  }
}
