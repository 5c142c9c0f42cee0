import type { PromptLanguage } from './prompts.js';

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
const LATIN = /[A-Za-z\u00c0-\u024f]/u;

/** 'zh' when Han characters outnumber Latin letters (the authors' `detect_language`), else 'en'. Linear. */
export function detectPromptLanguage(text: string): PromptLanguage {
  let han = 0;
  let latin = 0;
  for (const char of text) {
    if (HAN.test(char)) han += 1;
    else if (LATIN.test(char)) latin += 1;
  }
  return han > latin ? 'zh' : 'en';
}
