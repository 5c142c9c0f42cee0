import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axisTicks, renderBarChartSvg, SERIES_COLOURS } from '../src/report/bar-chart.js';
import { renderStudyReport, writeStudyReportFiles } from '../src/report/study-report.js';
import { cellText, formatMarkdownTable, numberCell, renderTableHtml, renderTableMarkdown, type StudyTable } from '../src/report/study-table.js';
import { attribute, elements, hasClass, literalEntities, parseDocument, parseHtmlFragment, select, textOf } from './html-tree.js';

const PAYLOADS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "'><svg onload=alert(3)>", '<ScRiPt>alert(4)</sCrIpT>', 'entail>=0.3 & <s> chunk </s>', '&amp; already an entity &lt;'];
/** Text as the HTML parser hands it back: it turns CR and CR LF into LF and NUL into U+FFFD. */
const parsedText = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((text) => !/[\r\0]/.test(text));

/** The text with every code point XML 1.0's Char production excludes removed (written from the spec, not from the renderer). */
const xmlChars = (text: string) =>
  [...text]
    .filter((char) => {
      const code = char.codePointAt(0)!;
      return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
    })
    .join('');

const table = (overrides: Partial<StudyTable> = {}): StudyTable => ({
  id: 'scores',
  caption: 'Scores',
  columns: [{ label: 'method' }, { label: 'F1', numeric: true }, { label: 'n', numeric: true }],
  rows: [
    ['a <b>', numberCell(0.8333333, { scale: 100, se: 0.1666, marks: '†' }), numberCell(12, { digits: 0 })],
    ['c & d', numberCell(null, { scale: 100 }), numberCell(3, { digits: 0, note: '(1 left out)' })],
  ],
  notes: ['In %; † p < 0.05.'],
  ...overrides,
});

describe('study report pieces', () => {
  it('a Markdown cell cannot break its table (pipes and newlines escaped)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), (cells) => {
        const lines = formatMarkdownTable(
          cells.map((_, k) => `h${k}`),
          [cells],
        ).split('\n');
        expect(lines).toHaveLength(3);
        // Unescaped pipes in the data row: exactly the cell separators.
        expect(lines[2]!.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|')).toHaveLength(cells.length + 2);
      }),
    );
  });

  it('a Markdown cell cannot carry raw HTML: & < > become entities that display as the same characters', () => {
    const markdown = formatMarkdownTable(['statement'], [['Etna <img src=x onerror=alert(1)> & "Sicily"']]);
    expect(markdown.split('\n')[2]).toBe('| Etna &lt;img src=x onerror=alert(1)&gt; &amp; "Sicily" |');
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(formatMarkdownTable(['h'], [[text]]).split('\n')[2]).not.toMatch(/[<>]/);
      }),
    );
  });

  it('number cells: "–" for a missing value, ± SE only when finite, marks and notes after the number', () => {
    expect(cellText(numberCell(0.8333333, { scale: 100, se: 0.1666, marks: '†' }))).toBe('83.3 ± 16.7†');
    expect(cellText(numberCell(Number.NaN))).toBe('–');
    expect(cellText(numberCell(undefined, { se: 0.1 }))).toBe('–');
    expect(cellText(numberCell(0.5, { scale: 100, se: Number.NaN }))).toBe('50.0');
    expect(cellText(numberCell(3, { digits: 0, note: '(1 left out)' }))).toBe('3 (1 left out)');
    expect(renderTableMarkdown(table())).toBe('| method | F1 | n |\n|---|---:|---:|\n| a &lt;b&gt; | 83.3 ± 16.7† | 12 |\n| c &amp; d | – | 3 (1 left out) |\n\nIn %; † p < 0.05.');
  });

  it('an HTML table: real cells, numbers right-aligned with their exact value to sort on, ± SE and marks as their own elements', () => {
    const fragment = parseHtmlFragment(renderTableHtml(table()));
    const [element] = select(fragment, 'table');
    expect(element && hasClass(element, 'sortable')).toBe(true);
    expect(textOf(select(fragment, 'caption')[0]!)).toBe('Scores');
    const headers = select(fragment, 'th');
    expect(headers.map((th) => [textOf(th), attribute(th, 'data-kind')])).toEqual([
      ['method', 'text'],
      ['F1', 'number'],
      ['n', 'number'],
    ]);
    expect(headers.every((th) => select(th, 'button').length === 1)).toBe(true);
    const rows = select(select(fragment, 'tbody')[0]!, 'tr').map((tr) => select(tr, 'td'));
    expect(rows.map((cells) => cells.map(textOf))).toEqual([
      ['a <b>', '83.3 ± 16.7†', '12'],
      ['c & d', '–', '3 (1 left out)'],
    ]);
    expect(rows[0]!.map((td) => hasClass(td, 'num'))).toEqual([false, true, true]);
    expect(attribute(rows[0]![1]!, 'data-sort')).toBe('0.8333333');
    expect(attribute(rows[1]![1]!, 'data-sort')).toBe('');
    expect(textOf(select(rows[0]![1]!, 'span', 'se')[0]!)).toBe(' ± 16.7');
    expect(textOf(select(rows[0]![1]!, 'sup', 'sig')[0]!)).toBe('†');
    expect(textOf(select(fragment, 'p', 'table-notes')[0]!)).toBe('In %; † p < 0.05.');
  });

  it('every text of a table reads back exactly as given after an HTML parse: escaped once, never twice (property)', () => {
    fc.assert(
      fc.property(parsedText, fc.array(fc.tuple(parsedText, parsedText), { minLength: 1, maxLength: 4 }), parsedText, (caption, rows, note) => {
        const fragment = parseHtmlFragment(
          renderTableHtml({
            id: 't',
            caption,
            columns: [{ label: 'a' }, { label: 'b', numeric: true }],
            rows: rows.map(([text, other]) => [text, { value: 1, text: other }]),
            notes: [note],
          }),
        );
        expect(textOf(select(fragment, 'caption')[0]!)).toBe(caption);
        expect(select(fragment, 'tbody')[0] && select(select(fragment, 'tbody')[0]!, 'td').map(textOf)).toEqual(rows.flat());
        expect(textOf(select(fragment, 'p', 'table-notes')[0]!)).toBe(note);
        expect(select(fragment, 'script')).toHaveLength(0);
      }),
      { numRuns: 200 },
    );
    for (const payload of PAYLOADS) {
      const fragment = parseHtmlFragment(renderTableHtml(table({ caption: payload, rows: [[payload, numberCell(1)]] })));
      expect(textOf(select(fragment, 'caption')[0]!)).toBe(payload);
      expect(textOf(select(fragment, 'td')[0]!)).toBe(payload);
      expect(elements(fragment).map((element) => element.tagName)).not.toContain('img');
    }
  });

  it('the page escapes every plain string once; only the caller-built section markup is taken as HTML; no literal entity in any text', () => {
    for (const payload of PAYLOADS) {
      const html = renderStudyReport({
        title: `t ${payload}`,
        meta: `m ${payload}`,
        charts: [],
        tables: [table({ caption: payload })],
        markdown: `| ${payload} |`,
        warnings: [`w ${payload}`],
        sections: [{ summary: `s ${payload}`, html: '<p class="own">ok</p>' }],
      });
      const document = parseDocument(html);
      const tags = elements(document).map((element) => element.tagName);
      expect(tags.filter((tag) => ['img', 'svg'].includes(tag))).toEqual([]);
      expect(tags.filter((tag) => tag === 'script')).toHaveLength(1); // the page's own sort script
      expect(textOf(select(document, 'h1')[0]!)).toBe(`t ${payload}`);
      expect(textOf(select(document, 'p', 'meta')[0]!)).toBe(`m ${payload}`);
      expect(textOf(select(document, 'summary')[0]!)).toBe(`s ${payload}`);
      expect(textOf(select(document, 'caption')[0]!)).toBe(payload);
      expect(textOf(select(document, 'div', 'warnings')[0]!)).toBe(`w ${payload}`);
      expect(select(document, 'p', 'own')).toHaveLength(1);
      // The payload that is itself an entity must read back as that text, nothing else may hold one.
      expect(literalEntities(document).filter((text) => !text.includes('&amp; already an entity &lt;'))).toEqual([]);
    }
  });

  it('the one inline script is allowed by its own hash in the Content-Security-Policy, and nothing else is', () => {
    const document = parseDocument(renderStudyReport({ title: 't', meta: 'm', charts: [], tables: [table()], markdown: '' }));
    const script = (select(document, 'script')[0]!.childNodes[0] as { value: string }).value;
    const csp = attribute(elements(document).find((element) => element.tagName === 'meta' && attribute(element, 'http-equiv') === 'Content-Security-Policy')!, 'content')!;
    expect(csp).toBe(`default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  });
});

describe('bar chart', () => {
  it('whole-number y ticks for counts: 0 first, one integer step, the top at or above the largest value, at most 7 ticks (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (max) => {
        const { top, ticks } = axisTicks('count', max);
        expect(ticks[0]).toBe(0);
        expect(ticks.every(Number.isInteger)).toBe(true);
        expect(new Set(ticks.slice(1).map((tick, k) => tick - ticks[k]!)).size).toBe(1);
        expect(ticks[ticks.length - 1]).toBe(top);
        expect(top).toBeGreaterThanOrEqual(max);
        expect(ticks.length).toBeLessThanOrEqual(7);
        expect(ticks.length).toBeGreaterThanOrEqual(2);
      }),
    );
    expect(axisTicks('count', 3).ticks).toEqual([0, 1, 2, 3]);
    expect(axisTicks('count', 7).ticks).toEqual([0, 2, 4, 6, 8]);
    expect(axisTicks('count', 0).ticks).toEqual([0, 1]);
  });

  it('every series its own colour (up to 18), every legend label whole, axes labelled with their unit, well-formed XML text (property)', () => {
    expect(new Set(SERIES_COLOURS.map((colour) => colour.toLowerCase())).size).toBe(SERIES_COLOURS.length);
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }).filter((text) => !/[\r\0]/.test(text) && xmlChars(text).trim() === xmlChars(text) && xmlChars(text) !== ''),
          { minLength: 1, maxLength: 18, selector: xmlChars },
        ),
        fc.constantFrom('percent', 'count', 'score' as const),
        (labels, scale) => {
          const svg = renderBarChartSvg({ title: 'T', yLabel: 'y', xLabel: 'x', scale, groups: [{ label: 'g', bars: labels.map((label, k) => ({ label, value: k })) }] });
          expect(xmlChars(svg)).toBe(svg); // nothing XML 1.0 forbids: the file is well-formed
          const shown = labels.map(xmlChars);
          const fragment = parseHtmlFragment(svg);
          const legend = select(fragment, 'g', 'legend-entry');
          expect(legend.map((entry) => textOf(entry))).toEqual(shown);
          const fills = legend.map((entry) => attribute(select(entry, 'rect')[0]!, 'fill'));
          expect(new Set(fills).size).toBe(labels.length);
          // Each bar has its series' legend colour.
          for (const bar of select(fragment, 'rect', 'bar')) expect(attribute(bar, 'fill')).toBe(fills[shown.indexOf(attribute(bar, 'data-series')!)]);
          expect(textOf(elements(fragment).find((element) => hasClass(element, 'axis-label') && hasClass(element, 'y'))!)).toBe(`y (${scale === 'percent' ? '%' : scale})`);
          expect(literalEntities(fragment)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a standalone SVG document: namespace, size, viewBox, white background, no CSS or script', () => {
    const svg = renderBarChartSvg({ title: 'A & B <c>', yLabel: 'documents', xLabel: 'statement', scale: 'count', groups: [{ label: 'S1', bars: [{ label: 'x', value: 3 }] }] });
    const root = select(parseHtmlFragment(svg), 'svg')[0]!;
    expect(attribute(root, 'xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(attribute(root, 'viewBox')).toBe(`0 0 ${attribute(root, 'width')} ${attribute(root, 'height')}`);
    expect(attribute(select(root, 'rect', 'background')[0]!, 'fill')).toBe('#ffffff');
    expect(select(root, 'style').length + select(root, 'script').length).toBe(0);
    expect(textOf(select(root, 'title')[0]!)).toBe('A & B <c>');
    expect(select(root, 'text', 'tick').map(textOf)).toEqual(['0', '1', '2', '3']);
  });

  it('the page writes every chart as its own SVG file beside it and links it; --svg gets the first chart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-study-'));
    const chart = (id: string) => ({ id, svg: renderBarChartSvg({ title: id, yLabel: 'y', xLabel: 'x', groups: [{ label: 'g', bars: [{ label: 's', value: 0.5 }] }] }) });
    const report = { title: 't', meta: 'm', charts: [chart('scores'), chart('runs')], tables: [], markdown: '# m' };
    await writeStudyReportFiles({ html: join(dir, 'page.html'), svg: join(dir, 'fig.svg'), markdown: join(dir, 'page.md') }, report);
    expect(readFileSync(join(dir, 'page.scores.svg'), 'utf8')).toBe(`${report.charts[0]!.svg}\n`);
    expect(readFileSync(join(dir, 'page.runs.svg'), 'utf8')).toBe(`${report.charts[1]!.svg}\n`);
    expect(readFileSync(join(dir, 'fig.svg'), 'utf8')).toBe(`${report.charts[0]!.svg}\n`);
    expect(existsSync(join(dir, 'fig.runs.svg'))).toBe(true);
    expect(readFileSync(join(dir, 'page.md'), 'utf8')).toBe('# m\n');
    const page = parseDocument(readFileSync(join(dir, 'page.html'), 'utf8'));
    expect(select(page, 'a').map((a) => attribute(a, 'href'))).toEqual(['page.scores.svg', 'page.runs.svg']);
    expect(select(page, 'figure').length).toBe(2);
  });
});
