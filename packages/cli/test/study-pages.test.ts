import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { attribute, type Element, elements, hasClass, literalEntities, parseDocument, select, textOf } from './html-tree.js';
import { makeStudyPages, type StudyPages } from './study-pages.js';

let pages: StudyPages;
beforeAll(async () => {
  pages = await makeStudyPages();
}, 240_000);

const load = (path: string) => parseDocument(readFileSync(path, 'utf8'));
const tableById = (document: ReturnType<typeof parseDocument>, id: string) => elements(document).find((element) => element.tagName === 'table' && attribute(element, 'id') === `table-${id}`)!;
const bodyRows = (table: Element) => select(select(table, 'tbody')[0]!, 'tr').map((tr) => select(tr, 'td'));
const rowTexts = (table: Element) => bodyRows(table).map((cells) => cells.map(textOf));

describe('study pages from runs on the fixtures (built bin, parsed with parse5)', () => {
  it('every page: real tables (sortable headers, numbers right-aligned with their value), no literal entity in any text or attribute, one script', () => {
    for (const path of [pages.audit, pages.trace, pages.enrich, pages.eval]) {
      const document = load(path);
      expect(literalEntities(document), path).toEqual([]);
      expect(select(document, 'pre'), path).toEqual([]); // no Markdown dumped into <pre>
      const tables = select(document, 'table', 'sortable');
      expect(tables.length, path).toBeGreaterThan(0);
      for (const table of tables) {
        const headers = select(table, 'th');
        expect(headers.every((th) => select(th, 'button').length === 1)).toBe(true);
        const numeric = headers.map((th) => attribute(th, 'data-kind') === 'number');
        for (const cells of bodyRows(table)) {
          expect(cells).toHaveLength(headers.length);
          cells.forEach((td, k) => {
            expect(hasClass(td, 'num')).toBe(numeric[k]);
            if (numeric[k] && textOf(td) !== '–') expect(Number.isFinite(Number(attribute(td, 'data-sort')))).toBe(true);
          });
        }
      }
      expect(select(document, 'script')).toHaveLength(1);
    }
  });

  it('every chart is inline and also a standalone SVG file beside the page, linked from its figure', () => {
    for (const [path, ids] of [
      [pages.audit, ['metrics', 'runs']],
      [pages.trace, ['scores']],
      [pages.enrich, ['top-k']],
      [pages.eval, ['measures']],
    ] as const) {
      const html = readFileSync(path, 'utf8');
      const base = path.replace(/\.html$/, '');
      const links = select(parseDocument(html), 'a').map((a) => attribute(a, 'href'));
      expect(links).toEqual(ids.map((id) => `${base.split('/').pop()}.${id}.svg`));
      for (const id of ids) {
        const svg = readFileSync(`${base}.${id}.svg`, 'utf8').trim();
        expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
        expect(html).toContain(svg);
      }
    }
  });

  it('trace: the judge name shows "entail>=0.3" and the statement its markup as text; P/R/F1 hand-checked', () => {
    const document = load(pages.trace);
    expect(textOf(select(document, 'p', 'meta')[0]!)).toContain('lexical-nli(entail>=0.3,contradict>=0.3)');
    const scores = rowTexts(tableById(document, 'scores'));
    // By hand: FastTrack finds tennis-1 (gold tennis-1, tennis-0) and aqueduct-0 (gold aqueduct-0): P = 1, R = (1/2 + 1)/2,
    // F1 = (2/3 + 1)/2, SE over the two statements = |a − b|/2.
    expect(scores[0]!.slice(0, 5)).toEqual(['FastTrack (offline baselines)', '2', '100.0 ± 0.0', '75.0 ± 25.0', '83.3 ± 16.7']);
    expect(scores[1]![0]).toBe('brute force (nli-judge(lexical-nli(entail>=0.3,contradict>=0.3)), every document)');
    const f1 = bodyRows(tableById(document, 'scores'))[0]![4]!;
    expect(Number(attribute(f1, 'data-sort'))).toBeCloseTo(5 / 6, 12);
    expect(textOf(select(f1, 'span', 'se')[0]!)).toBe(' ± 16.7');
    const statements = rowTexts(tableById(document, 'statements'));
    expect(statements[2]![0]).toBe('Etna is an active volcano <img src=x onerror=alert(1)> in Sicily.');
    // Per statement, FastTrack found 1 document each for S1 and S2 (F1 2/3 and 1); S3 has no gold: no F1 (–, not 0).
    expect(statements.map((row) => row.slice(1, 4))).toEqual([
      ['tennis-1, tennis-0', '1', '66.7'],
      ['aqueduct-0', '1', '100.0'],
      ['–', '0', '–'],
    ]);
    expect(select(tableById(document, 'statements'), 'th').map(textOf).slice(2, 4)).toEqual(['FastTrack: found', 'FastTrack: F1']);
    expect(select(document, 'img')).toEqual([]);
  });

  it('enrich: the templates read "<s> … </s>", Top@k hand-checked, the legend names each layout in full with its own colour', () => {
    const document = load(pages.enrich);
    const rows = rowTexts(tableById(document, 'top-k'));
    // By hand: every query shares a content word only with its own document (case 1: 4/4); the title alone (case 2,
    // the lead sentence) has no word of the airport and the retirement questions (2/4).
    expect(rows[0]).toEqual(['case-1', 'passage: <s> document chunk </s>', '100.0', '100.0', '100.0', '100.0']);
    expect(rows[1]).toEqual(['case-2', 'passage: <s> title </s>', '50.0', '50.0', '50.0', '50.0']);
    const legend = select(document, 'g', 'legend-entry');
    expect(legend.map(textOf)).toEqual(rows.map(([name, template]) => `${name}: ${template}`));
    expect(new Set(legend.map((entry) => attribute(select(entry, 'rect')[0]!, 'fill'))).size).toBe(7);
    expect(textOf(elements(document).find((element) => hasClass(element, 'axis-label') && hasClass(element, 'y'))!)).toBe('queries with a gold chunk in the top k (%)');
  });

  it('audit: Table 2-style rows with the hand-checked baseline, a runs chart with whole-number ticks', () => {
    const document = load(pages.audit);
    const rows = rowTexts(tableById(document, 'results'));
    // Judged queries with text: q1, q2, q3. Recall@5: q1 1, q2 1, q3 1/2 → 83.3 %. RM3 generates no text: M is empty.
    expect(rows[0]!.slice(0, 3)).toEqual(['bm25(k1=0.9,b=0.4) (claim only)', 'ALL', '83.3']);
    expect(rows.map((row) => row[1])).toEqual(['ALL', 'ALL', 'M', '¬M']);
    expect(rows[2]!.slice(2)).toEqual(['–', '–', '–', '–']);
    const runsChart = elements(document).find((element) => element.tagName === 'figure' && attribute(element, 'id') === 'chart-runs')!;
    expect(select(runsChart, 'text', 'tick').map(textOf)).toEqual(['0', '1', '2', '3']);
    expect(select(runsChart, 'rect', 'bar').map((bar) => [attribute(bar, 'data-group'), attribute(bar, 'data-value')])).toContainEqual(['¬M (unmatched)', '3']);
  });

  it('eval: means per run, the best in bold, † where run b differs from a by the paired randomization test (p = 2/64)', () => {
    const document = load(pages.eval);
    const runs = tableById(document, 'runs');
    // a ranks the relevant document first (nDCG 1, AP 1), b second (nDCG 1/log2 3, AP 1/2); recall is 1 for both.
    expect(rowTexts(runs)).toEqual([
      ['a.trec', '6', '1.0000', '1.0000', '1.0000'],
      ['b.trec', '6', `${(1 / Math.log2(3)).toFixed(4)}†`, '1.0000', '0.5000†'],
    ]);
    expect(bodyRows(runs)[0]!.map((td) => hasClass(td, 'best'))).toEqual([false, false, true, false, true]);
    const paired = rowTexts(tableById(document, 'paired'));
    // Every per-query difference is the same: the t statistic is unbounded (p → 0) where they are not 0, and undefined
    // where they all are 0 (recall: 0/0), shown "–", never NaN.
    expect(paired.map((row) => [row[0], row[4], row[5]])).toEqual([
      ['ndcg_cut_10', '<0.001*', '0.0313*'],
      ['recall_100', '–', '1.0000'],
      ['map', '<0.001*', '0.0313*'],
    ]);
    expect(readFileSync(join(pages.dir, 'eval.measures.svg'), 'utf8')).toContain('mean over queries (score)');
  });
});
