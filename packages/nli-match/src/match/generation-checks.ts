import { hasCjk } from '@factkit/core';

/** Share of letters that are Han/Kana characters (0 for text without letters). */
export function cjkShare(text: string): number {
  const letters = text.match(/\p{L}/gu) ?? [];
  if (letters.length === 0) return 0;
  let cjk = 0;
  for (const letter of letters) if (hasCjk(letter)) cjk += 1;
  return cjk / letters.length;
}

/** True when `text` is clearly not in `language` ('en': mostly CJK letters; 'zh': no CJK at all). */
export function isWrongLanguage(text: string, language: 'en' | 'zh'): boolean {
  const share = cjkShare(text);
  if (language === 'en') return share > 0.3;
  return /\p{L}/u.test(text) && share === 0;
}
