// The byte container shared by saved BM25 and dense indexes (browser-safe: no Node imports):
//   magic (8 bytes) | format version (u32 LE) | header length (u32 LE) | JSON header with a section table |
//   8-byte-aligned sections | CRC-32 of everything before the footer (u32 LE) | total length (u32 LE).
// Each format keeps its own magic, version, header fields and section kinds; this module only frames them.
import { CorruptDataError } from '@factkit/core';
import { computeCrc32, updateCrc32 } from './crc32.js';

/** One entry of a header's section table: where a payload lies, relative to the start of the data area. */
export interface SectionEntry<Kind extends string = string> {
  name: string;
  kind: Kind;
  offset: number;
  byteLength: number;
}

/** A payload to write: its name, element kind (`'json'` or a typed-array kind) and bytes. */
export interface SectionPayload<Kind extends string = string> {
  readonly name: string;
  readonly kind: Kind;
  readonly bytes: Uint8Array;
}

export const isLittleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const align8 = (value: number): number => (value + 7) & ~7;
const FRAME_BYTES = 24; // 16 before the header + 8 of footer

/**
 * Yields the bytes of a container piece by piece (frame, header, each payload as given, zero padding, footer),
 * computing the CRC-32 as it goes, so a writer can stream a large index to a file without assembling it in memory.
 * Concatenated, the pieces are exactly {@link encodeSectionContainer}'s output.
 */
export function* sectionContainerChunks<Kind extends string>(magic: Uint8Array, version: number, header: Record<string, unknown>, payloads: readonly SectionPayload<Kind>[]): Generator<Uint8Array, void, undefined> {
  const sections: SectionEntry<Kind>[] = [];
  let cursor = 0;
  for (const payload of payloads) {
    sections.push({ name: payload.name, kind: payload.kind, offset: cursor, byteLength: payload.bytes.byteLength });
    cursor = align8(cursor + payload.bytes.byteLength);
  }
  const headerBytes = new TextEncoder().encode(JSON.stringify({ ...header, sections }));
  const dataStart = align8(16 + headerBytes.byteLength);
  const total = dataStart + cursor + 8;
  const prefix = new Uint8Array(dataStart);
  const prefixView = new DataView(prefix.buffer);
  prefix.set(magic, 0);
  prefixView.setUint32(8, version, true);
  prefixView.setUint32(12, headerBytes.byteLength, true);
  prefix.set(headerBytes, 16);
  let crc = updateCrc32(0, prefix);
  yield prefix;
  const zeros = new Uint8Array(8);
  for (const payload of payloads) {
    crc = updateCrc32(crc, payload.bytes);
    yield payload.bytes;
    const padding = align8(payload.bytes.byteLength) - payload.bytes.byteLength;
    if (padding > 0) {
      crc = updateCrc32(crc, zeros.subarray(0, padding));
      yield zeros.subarray(0, padding);
    }
  }
  const footer = new Uint8Array(8);
  const footerView = new DataView(footer.buffer);
  footerView.setUint32(0, crc, true);
  footerView.setUint32(4, total >>> 0, true);
  yield footer;
}

/** Frames `header` (its `sections` table filled in here) and the payloads; returns the bytes to save. */
export function encodeSectionContainer<Kind extends string>(magic: Uint8Array, version: number, header: Record<string, unknown>, payloads: readonly SectionPayload<Kind>[]): Uint8Array {
  const chunks = [...sectionContainerChunks(magic, version, header, payloads)];
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let position = 0;
  for (const chunk of chunks) {
    out.set(chunk, position);
    position += chunk.byteLength;
  }
  return out;
}

export interface DecodeSectionContainerOptions {
  readonly magic: Uint8Array;
  /** The version written now. */
  readonly version: number;
  /** Older versions still read (the caller tells them apart by {@link DecodedSectionContainer.version}). @default [] */
  readonly olderVersions?: readonly number[];
  /** The header's `format` field, e.g. 'factkit-bm25'. */
  readonly format: string;
  /** Names the kind of data in messages, e.g. 'BM25 index' ("is not a factkit BM25 index"). */
  readonly label: string;
  /** Names the data in errors (e.g. a file path). */
  readonly source: string;
}

export interface DecodedSectionContainer<Header, Kind extends string> {
  /** The format version of the data (the current one or one of `olderVersions`). */
  readonly version: number;
  readonly header: Header & { readonly sections: readonly SectionEntry<Kind>[] };
  /** A section's kind and bytes (a view into the input), or undefined when the header lists no such section. */
  section(name: string): { readonly kind: Kind; readonly bytes: Uint8Array } | undefined;
  /** Parses a `'json'` section. @throws CorruptDataError when it is missing or not valid JSON. */
  readJson<T>(name: string): T;
  /** Throws a CorruptDataError naming the source. */
  fail(message: string): never;
}

/**
 * Checks the frame (length, magic, version, footer, CRC-32, header JSON and `format`, section bounds) and gives access
 * to the sections. The caller checks its own header fields and section contents.
 * @throws CorruptDataError naming `options.source` when the bytes are truncated, damaged or of another format/version.
 */
export function decodeSectionContainer<Header, Kind extends string>(bytes: Uint8Array, options: DecodeSectionContainerOptions): DecodedSectionContainer<Header, Kind> {
  const { magic, format, label, source } = options;
  const fail = (message: string): never => {
    throw new CorruptDataError({ source, message });
  };
  if (bytes.byteLength < FRAME_BYTES) fail(`is truncated (${bytes.byteLength} bytes; a saved ${label} has at least ${FRAME_BYTES})`);
  for (let position = 0; position < magic.length; position++) if (bytes[position] !== magic[position]) fail(`is not a factkit ${label} (bad magic bytes)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  const unreadable = versionProblem(version, options);
  if (unreadable) fail(unreadable);
  const declaredTotal = view.getUint32(bytes.byteLength - 4, true);
  if (declaredTotal !== bytes.byteLength >>> 0) fail(`is truncated or has trailing data (footer says ${declaredTotal} bytes, got ${bytes.byteLength})`);
  if (computeCrc32(bytes.subarray(0, bytes.byteLength - 8)) !== view.getUint32(bytes.byteLength - 8, true)) fail('checksum mismatch (the file is damaged)');
  const headerLength = view.getUint32(12, true);
  if (16 + headerLength > bytes.byteLength - 8) fail('header runs past the end of the data');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let header: DecodedSectionContainer<Header, Kind>['header'];
  try {
    header = JSON.parse(decoder.decode(bytes.subarray(16, 16 + headerLength))) as DecodedSectionContainer<Header, Kind>['header'];
  } catch (cause) {
    throw new CorruptDataError({ source, message: 'header is not valid JSON', cause });
  }
  const raw = header as unknown as { format?: unknown; sections?: unknown } | null;
  if (typeof raw !== 'object' || raw === null || raw.format !== format || !Array.isArray(raw.sections)) fail(`header is not a factkit ${label} header`);
  const dataStart = align8(16 + headerLength);
  const dataEnd = bytes.byteLength - 8;
  const sections = new Map<string, { kind: Kind; bytes: Uint8Array }>();
  for (const section of header.sections) {
    const start = dataStart + section.offset;
    if (!Number.isInteger(section.offset) || !Number.isInteger(section.byteLength) || section.offset < 0 || section.byteLength < 0 || start + section.byteLength > dataEnd) {
      fail(`section "${String(section.name)}" lies outside the data`);
    }
    sections.set(section.name, { kind: section.kind, bytes: bytes.subarray(start, start + section.byteLength) });
  }
  return accessSections(version, header, sections, source, fail);
}

function versionProblem(version: number, options: DecodeSectionContainerOptions): string | undefined {
  const { version: current, olderVersions = [] } = options;
  if (version === current || olderVersions.includes(version)) return undefined;
  if (olderVersions.length === 0) return `has format version ${version}; this library reads version ${current}`;
  const known = [...olderVersions, current].sort((left, right) => left - right);
  return `has format version ${version}; this library reads versions ${known.slice(0, -1).join(', ')} and ${String(known[known.length - 1])}`;
}

function accessSections<Header, Kind extends string>(
  version: number,
  header: DecodedSectionContainer<Header, Kind>['header'],
  sections: Map<string, { kind: Kind; bytes: Uint8Array }>,
  source: string,
  fail: (message: string) => never,
): DecodedSectionContainer<Header, Kind> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return {
    version,
    header,
    section: (name) => sections.get(name),
    readJson<T>(name: string): T {
      const section = sections.get(name);
      if (!section || section.kind !== 'json') return fail(`section "${name}" is missing`);
      try {
        return JSON.parse(decoder.decode(section.bytes)) as T;
      } catch (cause) {
        throw new CorruptDataError({ source, message: `section "${name}" is not valid JSON`, cause });
      }
    },
    fail,
  };
}

/** Bytes read by position (e.g. a file descriptor), for {@link readSectionContainer}. */
export interface RandomAccessBytes {
  readonly byteLength: number;
  /** Fills all of `target` with the bytes starting at `position` (throws when it cannot). */
  read(target: Uint8Array, position: number): void;
}

const SCRATCH_BYTES = 1 << 20;

/**
 * Streaming {@link decodeSectionContainer}: reads the frame and header, then each section straight into the buffer
 * `allocate` gives for it (e.g. its final SharedArrayBuffer), computing the CRC-32 as it goes, so the whole container is
 * never held at once. Same checks and errors as {@link decodeSectionContainer}.
 * @throws CorruptDataError naming `options.source` when the bytes are truncated, damaged or of another format/version.
 */
export function readSectionContainer<Header, Kind extends string>(input: RandomAccessBytes, options: DecodeSectionContainerOptions, allocate: (section: SectionEntry<Kind>) => Uint8Array): DecodedSectionContainer<Header, Kind> {
  const { magic, format, label, source } = options;
  const fail = (message: string): never => {
    throw new CorruptDataError({ source, message });
  };
  const total = input.byteLength;
  if (total < FRAME_BYTES) fail(`is truncated (${total} bytes; a saved ${label} has at least ${FRAME_BYTES})`);
  const prefix = new Uint8Array(16);
  input.read(prefix, 0);
  for (let position = 0; position < magic.length; position++) if (prefix[position] !== magic[position]) fail(`is not a factkit ${label} (bad magic bytes)`);
  const prefixView = new DataView(prefix.buffer);
  const version = prefixView.getUint32(8, true);
  const unreadable = versionProblem(version, options);
  if (unreadable) fail(unreadable);
  const footer = new Uint8Array(8);
  input.read(footer, total - 8);
  const footerView = new DataView(footer.buffer);
  const declaredTotal = footerView.getUint32(4, true);
  if (declaredTotal !== total >>> 0) fail(`is truncated or has trailing data (footer says ${declaredTotal} bytes, got ${total})`);
  const expectedCrc = footerView.getUint32(0, true);
  const dataEnd = total - 8;
  let scratch: Uint8Array | undefined;
  /** CRC-32 of [start, end) continued from `crc`, read through a small scratch buffer. */
  const crcOfRange = (crc: number, start: number, end: number): number => {
    scratch ??= new Uint8Array(SCRATCH_BYTES);
    for (let position = start; position < end; position += SCRATCH_BYTES) {
      const piece = scratch.subarray(0, Math.min(SCRATCH_BYTES, end - position));
      input.read(piece, position);
      crc = updateCrc32(crc, piece);
    }
    return crc;
  };
  /** A damaged file reports a checksum mismatch before any structural complaint. */
  const failChecked = (message: string, cause?: unknown): never => {
    if (crcOfRange(0, 0, dataEnd) !== expectedCrc) fail('checksum mismatch (the file is damaged)');
    throw new CorruptDataError({ source, message, ...(cause === undefined ? {} : { cause }) });
  };
  const headerLength = prefixView.getUint32(12, true);
  if (16 + headerLength > dataEnd) failChecked('header runs past the end of the data');
  const headerBytes = new Uint8Array(headerLength);
  input.read(headerBytes, 16);
  let header: DecodedSectionContainer<Header, Kind>['header'];
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(headerBytes)) as DecodedSectionContainer<Header, Kind>['header'];
  } catch (cause) {
    return failChecked('header is not valid JSON', cause);
  }
  const raw = header as unknown as { format?: unknown; sections?: unknown } | null;
  if (typeof raw !== 'object' || raw === null || raw.format !== format || !Array.isArray(raw.sections)) failChecked(`header is not a factkit ${label} header`);
  const dataStart = align8(16 + headerLength);
  for (const section of header.sections) {
    const start = dataStart + section.offset;
    if (!Number.isInteger(section.offset) || !Number.isInteger(section.byteLength) || section.offset < 0 || section.byteLength < 0 || start + section.byteLength > dataEnd) {
      failChecked(`section "${String(section.name)}" lies outside the data`);
    }
  }
  const ordered = [...header.sections].sort((a, b) => a.offset - b.offset);
  for (let position = 1; position < ordered.length; position++) {
    const previous = ordered[position - 1] as SectionEntry<Kind>;
    if ((ordered[position] as SectionEntry<Kind>).offset < previous.offset + previous.byteLength) failChecked(`section "${String(previous.name)}" overlaps the next one`);
  }
  let crc = updateCrc32(updateCrc32(0, prefix), headerBytes);
  let cursor = 16 + headerLength;
  const sections = new Map<string, { kind: Kind; bytes: Uint8Array }>();
  for (const section of ordered) {
    const start = dataStart + section.offset;
    crc = crcOfRange(crc, cursor, start);
    const bytes = allocate(section);
    if (bytes.byteLength !== section.byteLength) throw new RangeError(`readSectionContainer: allocate gave ${bytes.byteLength} bytes for ${section.byteLength}`);
    input.read(bytes, start);
    crc = updateCrc32(crc, bytes);
    cursor = start + section.byteLength;
    sections.set(section.name, { kind: section.kind, bytes });
  }
  crc = crcOfRange(crc, cursor, dataEnd);
  if (crc !== expectedCrc) fail('checksum mismatch (the file is damaged)');
  return accessSections(version, header, sections, source, fail);
}
