import type { Claim, ItemProblem, SearchQuery } from '@factkit/core';
import { claimIdOf } from '../detect/generator.js';
import type { PromptLanguage } from '../prompts/prompts.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

/** One claim and the query generated for it (Tables 21/22 pair claims and queries one to one, in order). */
export interface ParsedClaimQueryPair {
  /** 0-based position among the parsed claims. */
  readonly index: number;
  /** The claim; `id` is `<itemId>:c<index>` (see {@link ParseClaimQueryOptions}). */
  readonly claim: Claim;
  /** The query for this claim (`claimId` = the claim's id); undefined when the model gave none ("No query" / 无查询) or it is missing. */
  readonly query?: SearchQuery;
  /** True when the model said explicitly there is nothing to query ("No query" / 无查询). */
  readonly noQuery: boolean;
  /** Problems of this pair (`missing-query`, `empty-claim`, ...). */
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
}

export interface ParseClaimQueryOptions {
  /** The item the reply answers: claims are keyed `<itemId>:c<k>`. @default '0' */
  readonly itemId?: string;
}

export interface ClaimQueryParse {
  readonly pairs: readonly ParsedClaimQueryPair[];
  /** True when the model answered "No claims." / 无陈述 (and gave no claim). */
  readonly noClaims: boolean;
  /** Queries the model gave beyond the number of claims; kept, never silently dropped. */
  readonly orphanQueries: readonly string[];
  /** Language of the section markers found ('mixed' when both were used, undefined when none). */
  readonly markerLanguage?: PromptLanguage | 'mixed';
  /** Reply-level problems: `empty-reply`, `missing-section`, `missing-end`, `count-mismatch`, `extra-text`, ... */
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
}

type Section = 'claims' | 'queries' | 'end';

const MARKERS: ReadonlyArray<{ words: readonly string[]; section: Section; language: PromptLanguage }> = [
  { words: ['claims', 'claim', 'claim(s)'], section: 'claims', language: 'en' },
  { words: ['陈述', '声明'], section: 'claims', language: 'zh' },
  { words: ['queries', 'query', 'search queries'], section: 'queries', language: 'en' },
  { words: ['查询', '查询语句'], section: 'queries', language: 'zh' },
  { words: ['end'], section: 'end', language: 'en' },
  { words: ['结束'], section: 'end', language: 'zh' },
];
const MARKER_BY_WORD = new Map<string, { section: Section; language: PromptLanguage }>();
for (const marker of MARKERS) for (const word of marker.words) MARKER_BY_WORD.set(word, marker);

/** A bracketed marker at the start of a line: [Claims], 【陈述】, **[Queries]**, ### [End]. */
const BRACKETED = /^[#*\s>]*[[【]\s*([^\]】]{1,20}?)\s*[\]】][*:：\s]*/u;
/** A bare marker line: "Claims:", "**Queries**", "### 查询". Only whole lines. */
const BARE = /^[#*\s>]*([A-Za-z()\u4e00-\u9fff ]{1,20}?)[*:：\s]*$/u;

const NO_CLAIMS = /^(?:no claims?(?: found| exist| extracted)?\.?|none\.?|无陈述[。.]?|没有陈述[。.]?|无[。.]?)$/iu;
const NO_QUERY = /^(?:no query\.?|no queries\.?|none\.?|n\/a|无查询[。.]?|无[。.]?)$/iu;

/**
 * Numbered or bulleted list prefixes: "1.", "1)", "(1)", "1、", "1:", "1 " (the authors' format), "**1.**", "-", "*",
 * "•", "Claim 1:", "Query 2 -", "陈述1：", "查询 2：". Group 1 = the number when there is one.
 */
const ITEM_PREFIX = /^(?:[-*•·‣◦]\s+)?(?:\*\*)?(?:(?:claim|query|陈述|查询)\s*(\d{1,4})?\s*[:：.、)-]\s*|[(（]?(\d{1,4})\s*(?:[.)）、:：]|\s)\s*|[-*•·‣◦]\s+)(?:\*\*)?\s*/iu;
const LABELLED_LINE = /^(?:[-*•]\s*)?(?:\*\*)?(claim|query|陈述|查询)\s*\d{0,4}\s*(?:\*\*)?\s*[:：]\s*(.*)$/iu;

interface Item {
  readonly text: string;
  readonly number?: number;
  readonly line: number;
}

function problem(code: ClaimQueryProblemCode, message: string, raw?: string, index?: number): ItemProblem<ClaimQueryProblemCode> {
  return { code, message, ...(raw === undefined ? {} : { raw: raw.slice(0, 500) }), ...(index === undefined ? {} : { index }) };
}

function stripThinking(text: string): string {
  const close = text.lastIndexOf('</think>');
  return close >= 0 ? text.slice(close + '</think>'.length) : text;
}

function readMarker(line: string): { section: Section; language: PromptLanguage; rest: string } | undefined {
  const bracketed = BRACKETED.exec(line);
  if (bracketed) {
    const marker = MARKER_BY_WORD.get((bracketed[1] ?? '').toLowerCase());
    if (marker) return { ...marker, rest: line.slice(bracketed[0].length).trim() };
    return undefined;
  }
  const bare = BARE.exec(line);
  if (bare) {
    const marker = MARKER_BY_WORD.get((bare[1] ?? '').trim().toLowerCase());
    if (marker) return { ...marker, rest: '' };
  }
  return undefined;
}

function cleanItem(text: string): string {
  return text
    .replace(/\*\*/g, '')
    .replace(/^["“「]|["”」]$/gu, '')
    .trim();
}

function toItem(line: string, index: number): { item?: Item; prose: boolean } {
  const prefix = ITEM_PREFIX.exec(line);
  if (prefix && prefix[0].length > 0 && prefix[0].length < line.length) {
    const digits = prefix[1] ?? prefix[2];
    const text = cleanItem(line.slice(prefix[0].length));
    if (text.length === 0) return { prose: false };
    return { item: { text, line: index, ...(digits === undefined ? {} : { number: Number(digits) }) }, prose: false };
  }
  const text = cleanItem(line);
  if (text.length === 0) return { prose: false };
  return { item: { text, line: index }, prose: /[:：]$/u.test(text) };
}

/**
 * Items of one section. Numbered sections: unnumbered lines before the first or after the last numbered item are
 * prose (`extra-text`), unnumbered lines between numbered items continue the item above (a wrapped line).
 */
function sectionItems(lines: readonly string[], firstLine: number, problems: ItemProblem<ClaimQueryProblemCode>[], section: string): Item[] {
  const raw: Array<{ item: Item; prose: boolean }> = [];
  lines.forEach((line, offset) => {
    const parsed = toItem(line.trim(), firstLine + offset);
    if (parsed.item) raw.push({ item: parsed.item, prose: parsed.prose });
  });
  const numbered = raw.filter((entry) => entry.item.number !== undefined);
  const items: Item[] = [];
  if (numbered.length === 0) {
    for (const entry of raw) {
      if (entry.prose && raw.length > 1) problems.push(problem('extra-text', `${section}: line read as prose, not an item`, entry.item.text));
      else items.push(entry.item);
    }
    return items;
  }
  const firstNumbered = raw.indexOf(numbered[0]!);
  const lastNumbered = raw.lastIndexOf(numbered[numbered.length - 1]!);
  raw.forEach((entry, position) => {
    if (entry.item.number !== undefined) {
      items.push(entry.item);
    } else if (position < firstNumbered || position > lastNumbered || entry.prose) {
      problems.push(problem('extra-text', `${section}: unnumbered line outside the numbered list, read as prose`, entry.item.text));
    } else {
      const previous = items.pop();
      if (previous) {
        items.push({ ...previous, text: `${previous.text} ${entry.item.text}` });
        problems.push(problem('joined-line', `${section}: unnumbered line joined to item ${previous.number ?? ''} above`, entry.item.text));
      }
    }
  });
  return items;
}

/** Pairs by explicit numbers when both lists are numbered 1..n without duplicates, else by position. */
function pairItems(claims: readonly Item[], queries: readonly Item[]): Array<[Item | undefined, Item | undefined]> {
  // Numbers count when strictly increasing and small (so "1990 census ..." is not read as item 1990).
  const numberedOk = (items: readonly Item[]): boolean =>
    items.every((item, position) => item.number !== undefined && item.number >= 1 && item.number <= items.length + 10 && (position === 0 || item.number > (items[position - 1]?.number ?? 0)));
  if (claims.length > 0 && queries.length > 0 && numberedOk(claims) && numberedOk(queries)) {
    const byNumber = new Map<number, Item>(queries.map((q) => [q.number!, q]));
    const out: Array<[Item | undefined, Item | undefined]> = claims.map((claim) => {
      const query = byNumber.get(claim.number!);
      byNumber.delete(claim.number!);
      return [claim, query];
    });
    for (const orphan of byNumber.values()) out.push([undefined, orphan]);
    return out;
  }
  const length = Math.max(claims.length, queries.length);
  const out: Array<[Item | undefined, Item | undefined]> = [];
  for (let i = 0; i < length; i += 1) out.push([claims[i], queries[i]]);
  return out;
}

/**
 * Parses a Claim-Query Generator reply (`[Claims] … [Queries] … [End]`, Tables 21/22, either language) into claim–query
 * pairs. Tolerant: numbering, bullets, bold, missing or repeated markers, missing `[End]`, extra prose, count
 * mismatches, "No claims." / 无陈述 / "No query" / 无查询, `<think>` blocks and labelled `Claim: … / Query: …` lines are
 * parsed as far as possible, each irregularity reported as a problem. Pure, linear time, never throws.
 * @example parseClaimQueryReply('[Claims]\n1 Paris is in France.\n[Queries]\n1 Where is Paris?\n[End]').pairs[0].query?.text
 */
export function parseClaimQueryReply(reply: string, options: ParseClaimQueryOptions = {}): ClaimQueryParse {
  const itemId = typeof options?.itemId === 'string' ? options.itemId : '0';
  const problems: ItemProblem<ClaimQueryProblemCode>[] = [];
  const text = stripThinking(typeof reply === 'string' ? reply : '')
    .replace(/\r\n?/g, '\n')
    .replace(/^```[a-z]*\n|\n```\s*$/g, '');
  if (text.trim().length === 0) {
    return { pairs: [], noClaims: false, orphanQueries: [], problems: [problem('empty-reply', 'the reply is empty')] };
  }
  const lines = text.split('\n');
  const sections: Record<'claims' | 'queries' | 'preamble' | 'trailing', { lines: string[]; first: number }> = {
    preamble: { lines: [], first: 0 },
    claims: { lines: [], first: 0 },
    queries: { lines: [], first: 0 },
    trailing: { lines: [], first: 0 },
  };
  const languages = new Set<PromptLanguage>();
  let current: keyof typeof sections = 'preamble';
  let sawClaims = false;
  let sawQueries = false;
  let sawEnd = false;
  lines.forEach((line, index) => {
    if (current === 'trailing') {
      sections.trailing.lines.push(line);
      return;
    }
    const marker = readMarker(line);
    if (!marker) {
      sections[current].lines.push(line);
      return;
    }
    languages.add(marker.language);
    let next: keyof typeof sections;
    if (marker.section === 'claims') {
      if (sawClaims) {
        problems.push(problem('repeated-block', 'a second claims section starts here; it and everything after it are ignored', lines.slice(index).join('\n')));
        next = 'trailing';
        sawEnd = true;
      } else {
        sawClaims = true;
        next = 'claims';
      }
    } else if (marker.section === 'queries') {
      if (sawQueries) {
        problems.push(problem('repeated-block', 'a second queries section starts here; it and everything after it are ignored', lines.slice(index).join('\n')));
        next = 'trailing';
        sawEnd = true;
      } else {
        sawQueries = true;
        next = 'queries';
      }
    } else {
      sawEnd = true;
      next = 'trailing';
    }
    current = next;
    sections[current].first = index + 1;
    if (marker.rest.length > 0 && current !== 'trailing') sections[current].lines.push(marker.rest);
    else if (marker.rest.length > 0) sections.trailing.lines.push(marker.rest);
  });

  // Labelled lines without section markers: "Claim: … / Query: …" interleaved.
  if (!sawClaims && !sawQueries) {
    const claims: Item[] = [];
    const queries: Item[] = [];
    const orphans: string[] = [];
    sections.preamble.lines.forEach((line, index) => {
      const match = LABELLED_LINE.exec(line.trim());
      if (!match) return;
      const isClaim = /^(claim|陈述)$/iu.test(match[1] ?? '');
      const body = cleanItem(match[2] ?? '');
      if (body.length === 0) return;
      if (isClaim) {
        claims.push({ text: body, line: index });
        queries.push({ text: '', line: -1 });
      } else if (claims.length > 0 && queries[claims.length - 1]?.text === '') {
        queries[claims.length - 1] = { text: body, line: index };
      } else {
        orphans.push(body);
      }
    });
    if (claims.length > 0) {
      problems.push(problem('missing-section', 'no [Claims]/[Queries] markers; read labelled "Claim:"/"Query:" lines'));
      for (const orphan of orphans) problems.push(problem('orphan-query', 'query line with no claim line before it', orphan));
      const parsed = finish(itemId, claims, queries, problems, languages, true);
      return { ...parsed, orphanQueries: [...parsed.orphanQueries, ...orphans] };
    }
  }

  if (!sawClaims) {
    problems.push(problem('missing-section', 'no [Claims] marker; text before [Queries] (or the whole reply) read as claims'));
    sections.claims = sections.preamble;
  } else if (sections.preamble.lines.some((line) => line.trim().length > 0)) {
    problems.push(problem('extra-text', 'text before [Claims] ignored', sections.preamble.lines.join('\n').trim()));
  }
  if (!sawQueries) problems.push(problem('missing-section', 'no [Queries] section: claims have no queries'));
  if (!sawEnd && sawQueries) problems.push(problem('missing-end', 'no [End] marker (reply may be truncated)'));
  const trailing = sections.trailing.lines.join('\n').trim();
  if (trailing.length > 0 && !problems.some((p) => p.code === 'repeated-block')) problems.push(problem('extra-text', 'text after [End] ignored', trailing));

  const claimItems = sectionItems(sections.claims.lines, sections.claims.first, problems, 'claims');
  const queryItems = sectionItems(sections.queries.lines, sections.queries.first, problems, 'queries');
  return finish(itemId, claimItems, queryItems, problems, languages, sawQueries);
}

function finish(itemId: string, claimItems: readonly Item[], queryItems: readonly Item[], problems: ItemProblem<ClaimQueryProblemCode>[], languages: ReadonlySet<PromptLanguage>, sawQueries: boolean): ClaimQueryParse {
  const markerLanguage = languages.size === 0 ? undefined : languages.size > 1 ? 'mixed' : [...languages][0];
  if (markerLanguage === 'mixed') problems.push(problem('mixed-language', 'section markers of both languages were used'));

  const noClaimItems = claimItems.filter((item) => NO_CLAIMS.test(item.text));
  const realClaims = claimItems.filter((item) => !NO_CLAIMS.test(item.text));
  let noClaims = false;
  if (noClaimItems.length > 0) {
    if (realClaims.length === 0) noClaims = true;
    else problems.push(problem('contradictory-no-claims', `"No claims." given beside ${realClaims.length} claim(s); the claims are kept`));
  }
  // A lone "No query" answering "No claims." is consistent, not an orphan.
  const queries = noClaims && queryItems.every((q) => NO_QUERY.test(q.text)) ? [] : queryItems;
  if (claimItems.length === 0 && !noClaims) problems.push(problem('no-claims-parsed', 'no claim could be read from the reply'));

  const paired = pairItems(realClaims, queries);
  const realQueryCount = queries.filter((q) => q.text.length > 0).length;
  if (sawQueries && realClaims.length > 0 && realQueryCount !== realClaims.length) {
    problems.push(problem('count-mismatch', `${realClaims.length} claim(s) but ${realQueryCount} query line(s)`));
  }
  const pairs: ParsedClaimQueryPair[] = [];
  const orphanQueries: string[] = [];
  for (const [claim, query] of paired) {
    if (!claim) {
      if (query && query.text.length > 0 && !NO_QUERY.test(query.text)) {
        orphanQueries.push(query.text);
        problems.push(problem('orphan-query', 'query with no claim to pair with', query.text));
      }
      continue;
    }
    const index = pairs.length;
    const pairProblems: ItemProblem<ClaimQueryProblemCode>[] = [];
    const noQuery = query !== undefined && NO_QUERY.test(query.text);
    let queryText: string | undefined;
    if (query === undefined || query.text.length === 0) {
      if (sawQueries || queryItems.length > 0) pairProblems.push(problem('missing-query', 'no query line for this claim', undefined, index));
    } else if (!noQuery) {
      queryText = query.text;
    }
    const id = claimIdOf(itemId, index);
    pairs.push({ index, claim: { id, text: claim.text }, ...(queryText === undefined ? {} : { query: { text: queryText, claimId: id } }), noQuery, problems: pairProblems });
  }
  return { pairs, noClaims, orphanQueries, ...(markerLanguage === undefined ? {} : { markerLanguage }), problems };
}
