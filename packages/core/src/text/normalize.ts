export interface NormalizeOptions {
  /** @default true */
  readonly lowercase?: boolean;
  /** Replace punctuation with spaces. @default false */
  readonly stripPunctuation?: boolean;
  /** Remove diacritics ("café" → "cafe"). @default false */
  readonly stripDiacritics?: boolean;
}

/** Unicode NFKC normalization, optional lowercasing / punctuation and diacritic removal, whitespace collapsed. */
export function normalizeText(text: string, options: NormalizeOptions = {}): string {
  const { lowercase = true, stripPunctuation = false, stripDiacritics = false } = options;
  let out = text.normalize('NFKC');
  if (stripDiacritics)
    out = out
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .normalize('NFC');
  if (lowercase) out = out.toLowerCase();
  if (stripPunctuation) out = out.replace(/[\p{P}\p{S}]+/gu, ' ');
  return out.replace(/\s+/gu, ' ').trim();
}
