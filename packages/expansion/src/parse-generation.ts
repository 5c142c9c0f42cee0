import type { ExpansionProblemCode } from './problem-codes.js';
import { isRefusal, stripCodeFences } from '@factkit/core';

/** Why a generation cannot be used as it is. */
export type GenerationProblemCode = Extract<ExpansionProblemCode, 'empty' | 'refusal' | 'wrong-language' | 'missing'>;

export interface GenerationProblem {
  readonly code: GenerationProblemCode;
  readonly message: string;
}

/** A model output after cleaning, with the problem found in it, if any. Never throws. */
export interface ParsedGeneration {
  /** Cleaned text: reasoning blocks, code fences, an echoed "Passage:" label and wrapping quotes removed, trimmed. */
  readonly text: string;
  /** The text exactly as the model returned it. */
  readonly raw: string;
  readonly problem?: GenerationProblem;
}

export interface ParseGenerationOptions {
  /** The query the text was generated for; when given, a generation in another script is flagged `wrong-language`. */
  readonly query?: string;
  /**
   * Smallest share of the generation's letters that must be in the query's script (scripts of one writing system,
   * e.g. Han and Kana, count together). @default 0.5
   */
  readonly minScriptShare?: number;
}

/** The writing system of a letter; CJK scripts are grouped since Japanese mixes Han and Kana. */
export type ScriptName = 'latin' | 'cjk' | 'hangul' | 'cyrillic' | 'greek' | 'arabic' | 'hebrew' | 'devanagari' | 'thai' | 'other';

const SCRIPT_TESTS: ReadonlyArray<readonly [ScriptName, RegExp]> = [
  ['latin', /\p{Script=Latin}/u],
  ['cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['hangul', /\p{Script=Hangul}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['greek', /\p{Script=Greek}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
  ['thai', /\p{Script=Thai}/u],
];

/** Counts the letters of `text` per writing system. */
export function countScripts(text: string): Partial<Record<ScriptName, number>> {
  const counts: Partial<Record<ScriptName, number>> = {};
  for (const char of text) {
    if (!/\p{L}/u.test(char)) continue;
    const found = SCRIPT_TESTS.find(([, pattern]) => pattern.test(char));
    const name = found ? found[0] : 'other';
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

/**
 * The dominant writing system of `text` and its share of the letters, or undefined when the text has too few letters
 * to tell (fewer than 3, or 1 for CJK since one Han character is a word).
 */
export function detectScript(text: string): { readonly script: ScriptName; readonly share: number } | undefined {
  const counts = countScripts(text);
  let total = 0;
  let best: ScriptName | undefined;
  let bestCount = 0;
  for (const [name, count] of Object.entries(counts) as [ScriptName, number][]) {
    total += count;
    if (count > bestCount) {
      best = name;
      bestCount = count;
    }
  }
  if (best === undefined) return undefined;
  if (total < 3 && !(best === 'cjk' && bestCount >= 1)) return undefined;
  return { script: best, share: bestCount / total };
}

const PROMPT_ECHO = /^(?:claim|question|query|topic|passage)\s*:[^\n]*\n+\s*(?:passage|counter argument|answer)\s*:/iu;
const LABEL_ECHO = /^(?:passage|counter argument|answer|document|article|response|output|hypothetical document)\s*:\s*/iu;

/** Removes the wrappers models put around a passage. Pure; never throws. */
export function cleanGeneration(raw: string): string {
  // Reasoning models put one <think>…</think> block first: keep what follows the last closing tag (linear time).
  const close = raw.toLowerCase().lastIndexOf('</think>');
  let text = (close === -1 ? raw : raw.slice(close + '</think>'.length)).trim();
  if (text.startsWith('```') && text.endsWith('```')) text = stripCodeFences(text);
  // A model that echoes the prompt's tail ("Claim: …\nPassage: …") keeps only what follows the answer label.
  const echoed = PROMPT_ECHO.exec(text);
  if (echoed) text = text.slice(echoed[0].length).trim();
  for (let i = 0; i < 2 && LABEL_ECHO.test(text); i += 1) text = text.replace(LABEL_ECHO, '').trim();
  const quoted = /^(["“”'])([\s\S]*)(["“”'])$/u.exec(text);
  if (quoted && (quoted[2] ?? '').length > 0 && !/["“”]/u.test(quoted[2] ?? '')) text = (quoted[2] ?? '').trim();
  return text;
}

/**
 * Cleans one model output and checks it: `empty` (no letters or digits), `refusal`, or `wrong-language` (most of its
 * letters are in a different script from the query's). Pure and total: any input, including non-strings, gives a
 * result and never throws.
 */
export function parseGeneration(raw: unknown, options: ParseGenerationOptions = {}): ParsedGeneration {
  const { query, minScriptShare = 0.5 } = options;
  const rawText = typeof raw === 'string' ? raw : '';
  if (typeof raw !== 'string') {
    return { text: '', raw: rawText, problem: { code: 'missing', message: `the model returned no text (got ${raw === null ? 'null' : typeof raw})` } };
  }
  const text = cleanGeneration(rawText);
  if (!/[\p{L}\p{N}]/u.test(text)) {
    return { text, raw: rawText, problem: { code: 'empty', message: 'the generation has no letters or digits' } };
  }
  if (isRefusal(text)) {
    return { text, raw: rawText, problem: { code: 'refusal', message: `the model refused: "${text.slice(0, 80)}"` } };
  }
  if (typeof query === 'string') {
    const expected = detectScript(query);
    if (expected !== undefined && expected.script !== 'other') {
      const counts = countScripts(text);
      const letters = Object.values(counts).reduce((sum, count) => sum + (count ?? 0), 0);
      const share = letters === 0 ? 0 : (counts[expected.script] ?? 0) / letters;
      if (letters >= 3 && share < minScriptShare) {
        const found = detectScript(text);
        return {
          text,
          raw: rawText,
          problem: {
            code: 'wrong-language',
            message: `the query is in ${expected.script} script but only ${(share * 100).toFixed(0)}% of the generation's letters are (mostly ${found?.script ?? 'other'})`,
          },
        };
      }
    }
  }
  return { text, raw: rawText };
}
