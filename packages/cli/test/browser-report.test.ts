import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStudyPages, type StudyPages } from './study-pages.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const qa = fileURLToPath(new URL('./fixtures/check/qa.jsonl', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`browser-report.test.ts skipped: ${CHROMIUM} is missing (CI installs it: apt-get install -y chromium)`);

describe.skipIf(!hasChromium)('factkit check HTML report in a real browser (Debian chromium + playwright-core)', () => {
  it('opens from file://, shows coloured sentences and labels, expands an evidence section, saves a screenshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-browser-'));
    const html = join(dir, 'report.html');
    const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', XDG_CACHE_HOME: join(dir, 'cache') };
    await run(process.execPath, [bin, 'check', '--input', qa, '--html', html, '--json'], { env }).catch((error: { code: number }) => {
      if (error.code !== 3) throw error; // the fixture has two bad lines on purpose
    });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(pathToFileURL(html).href);
      expect(await page.title()).toBe('factkit check');
      expect(await page.locator('h1').textContent()).toBe('factkit check');
      // Two checked answers, each with a response label; the two skipped input lines are listed.
      expect(await page.locator('section.item').count()).toBe(2);
      expect(await page.locator('section.item').first().getAttribute('data-id')).toBe('soul-food');
      expect(await page.locator('.input-problems li').count()).toBe(2);
      const labels = await page.locator('section.item').evaluateAll((items) => items.map((item) => item.getAttribute('data-response-label')));
      expect(labels.every((label) => ['hallucinated', 'not-hallucinated', 'unverifiable'].includes(label ?? ''))).toBe(true);
      // Sentences of the answer are coloured by their label (computed style, not just a class name).
      const sentences = page.locator('section.item >> nth=0 >> .answer .sentence');
      expect(await sentences.count()).toBe(2);
      const colours = await sentences.evaluateAll((spans) => spans.map((span) => [span.getAttribute('data-label'), getComputedStyle(span).backgroundColor]));
      const expected: Record<string, string> = { hallucinated: 'rgb(251, 213, 213)', 'not-hallucinated': 'rgb(217, 242, 221)', unverifiable: 'rgb(238, 238, 238)' };
      for (const [label, colour] of colours) expect(colour).toBe(expected[label ?? '']);
      expect(await sentences.first().textContent()).toBe('Soul Food was released by Fox 2000 Pictures.');
      // The evidence is collapsed; clicking its summary expands it and shows the WordNet synset with its id as source.
      const evidence = page.locator('section.item >> nth=0 >> details.evidence').first();
      const snippet = evidence.locator('li.snippet').first();
      expect(await snippet.isVisible()).toBe(false);
      await evidence.locator('summary').click();
      expect(await evidence.getAttribute('open')).not.toBeNull();
      expect(await snippet.isVisible()).toBe(true);
      expect(await snippet.textContent()).toMatch(/soul food: food traditionally eaten by African-Americans in the South.*source: wn:n:07954553/);
      // Badges carry the label colour too.
      expect(
        await page
          .locator('section.item >> nth=0 >> .sentence-block .badge')
          .first()
          .evaluate((badge) => getComputedStyle(badge).backgroundColor),
      ).toBe(expected[colours[0]?.[0] ?? '']);
      const screenshot = join(dir, 'report.png');
      await page.screenshot({ path: screenshot, fullPage: false });
      expect(statSync(screenshot).size).toBeGreaterThan(10_000);
      console.log(`screenshot: ${screenshot}`);
      // Self-contained: the only request is the file itself; no script ran or failed.
      expect(requests).toEqual([pathToFileURL(html).href]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

/** What a study page looks like to a reader, read in the browser: computed styles, not class names. */
interface PageFacts {
  readonly literalEntities: string[];
  readonly tables: { id: string; headers: string[]; numericAlign: string[]; numericFigures: string[] }[];
  readonly charts: { id: string; legend: string[]; legendFills: string[]; barsMatchLegend: boolean; yAxis: string; ticks: string[] }[];
}

const readPage = (page: Page): Promise<PageFacts> =>
  page.evaluate(() => {
    const entity = /&(?:[a-z][a-z0-9]*|#\d+|#x[0-9a-f]+);/i;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const literalEntities: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.parentElement?.tagName !== 'SCRIPT' && entity.test(node.nodeValue ?? '')) literalEntities.push(node.nodeValue ?? '');
    const tables = Array.from(document.querySelectorAll('table.study')).map((table) => {
      const numeric = Array.from(table.querySelectorAll('tbody td.num'));
      return {
        id: table.id,
        headers: Array.from(table.querySelectorAll('thead th')).map((th) => th.textContent ?? ''),
        numericAlign: [...new Set(numeric.map((td) => getComputedStyle(td).textAlign))],
        numericFigures: [...new Set(numeric.map((td) => getComputedStyle(td).fontVariantNumeric))],
      };
    });
    const charts = Array.from(document.querySelectorAll('figure.chart')).map((figure) => {
      const entries = Array.from(figure.querySelectorAll('g.legend-entry'));
      const fillOf = new Map(entries.map((entry) => [entry.getAttribute('data-series'), getComputedStyle(entry.querySelector('rect')!).fill]));
      return {
        id: figure.id,
        legend: entries.map((entry) => entry.textContent ?? ''),
        legendFills: Array.from(fillOf.values()),
        barsMatchLegend: Array.from(figure.querySelectorAll('rect.bar')).every((bar) => getComputedStyle(bar).fill === fillOf.get(bar.getAttribute('data-series'))),
        yAxis: figure.querySelector('text.axis-label.y')?.textContent ?? '',
        ticks: Array.from(figure.querySelectorAll('text.tick')).map((tick) => tick.textContent ?? ''),
      };
    });
    return { literalEntities, tables, charts };
  });

/** The values of a table's column as sorted on (data-sort of number cells, text otherwise), top to bottom. */
const columnValues = (page: Page, tableId: string, column: number) =>
  page.locator(`#table-${tableId} tbody tr`).evaluateAll((rows, k) => rows.map((row) => (row as HTMLTableRowElement).cells[k]?.dataset.sort ?? (row as HTMLTableRowElement).cells[k]?.textContent ?? ''), column);

const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

describe.skipIf(!hasChromium)('the study pages (audit, trace, enrich, eval) in a real browser (Debian chromium + playwright-core)', () => {
  let pages: StudyPages;
  let browser: Browser;
  beforeAll(async () => {
    [pages, browser] = await Promise.all([
      makeStudyPages(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--no-first-run'] }),
    ]);
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens a page, checks what every study page must hold, saves a full-page screenshot, returns the page and its facts. */
  const open = async (name: 'audit' | 'trace' | 'enrich' | 'eval') => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text()); // a CSP violation (blocked script) is logged here
    });
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    const url = pathToFileURL(pages[name]).href;
    await page.goto(url);
    expect(await page.title()).toBe(`factkit ${name}`);
    expect(await page.locator('h1').textContent()).toBe(`factkit ${name}`);
    const facts = await readPage(page);
    expect(facts.literalEntities).toEqual([]);
    expect(facts.tables.length).toBeGreaterThan(0);
    const withNumbers = facts.tables.filter((table) => table.numericAlign.length > 0);
    expect(withNumbers.length).toBeGreaterThan(0);
    for (const table of withNumbers) {
      expect(table.numericAlign).toEqual(['right']);
      expect(table.numericFigures).toEqual(['tabular-nums']);
    }
    expect(facts.charts.length).toBeGreaterThan(0);
    for (const chart of facts.charts) {
      expect(new Set(chart.legendFills).size).toBe(chart.legend.length);
      expect(chart.barsMatchLegend).toBe(true);
      expect(chart.yAxis).toMatch(/\((%|count|score)\)$/);
    }
    expect(await page.locator('pre').count()).toBe(0);
    const screenshot = join(SCREENSHOTS, `${name}.png`);
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);
    console.log(`screenshot: ${screenshot}`);
    return {
      page,
      facts,
      done: async () => {
        expect(requests).toEqual([url]);
        expect(problems).toEqual([]);
        await page.close();
      },
    };
  };

  it('audit: Table 2-style table with the hand-checked baseline, metric bars in four colours, a runs chart with whole-number ticks', async () => {
    const { page, facts, done } = await open('audit');
    expect(facts.tables.map((table) => table.id)).toEqual(['table-results', 'table-significance', 'table-matched', 'table-problems']);
    const [metrics, runs] = facts.charts;
    expect(metrics!.legend).toEqual(['bm25(k1=0.9,b=0.4) (claim only)', ...['ALL', 'M (matched)', '¬M (unmatched)'].map((data) => `rm3(fbDocs=10,fbTerms=10,originalQueryWeight=0.5) ${data}`)]);
    // Judged queries with text: q1, q2, q3. Recall@5: q1 1, q2 1, q3 1/2; M has no claim (RM3 generates no text): a gap.
    const baseline = page.locator('#chart-metrics rect.bar[data-group="Recall@5"]').first();
    expect(Number(await baseline.getAttribute('data-value'))).toBeCloseTo(2.5 / 3, 10);
    expect((await baseline.boundingBox())!.height).toBeCloseTo((2.5 / 3) * 220, 0);
    expect(await page.locator('#chart-metrics text.missing').count()).toBe(4);
    expect(runs!.ticks).toEqual(['0', '1', '2', '3']);
    expect(runs!.yAxis).toBe('runs (count)');
    await done();
  });

  it('trace: "entail>=0.3" and a statement with markup read as text; P/R/F1 bars hand-checked; sorting by method; a statement expands', async () => {
    const { page, facts, done } = await open('trace');
    expect(await page.locator('.meta').first().textContent()).toContain('lexical-nli(entail>=0.3,contradict>=0.3)');
    expect(facts.charts[0]!.legend).toEqual(['FastTrack (offline baselines)', 'brute force (nli-judge(lexical-nli(entail>=0.3,contradict>=0.3)), every document)', 'BM25 top-1 (best F1 over k)']);
    // By hand: FastTrack finds tennis-1 (gold tennis-1, tennis-0) and aqueduct-0 (gold aqueduct-0): P = 1, R = (1/2 + 1)/2, F1 = (2/3 + 1)/2.
    const fasttrack = (group: string) => page.locator(`rect.bar[data-group="${group}"][data-series^="FastTrack"]`).getAttribute('data-value');
    expect(Number(await fasttrack('precision'))).toBe(1);
    expect(Number(await fasttrack('recall'))).toBe(0.75);
    expect(Number(await fasttrack('F1'))).toBeCloseTo(5 / 6, 12);
    expect(await page.locator('#table-scores tbody tr').first().locator('td').allTextContents()).toEqual(['FastTrack (offline baselines)', '2', '100.0 ± 0.0', '75.0 ± 25.0', '83.3 ± 16.7', '36']);
    // The sort script runs (allowed by its hash): a click on "method" sorts by name, ascending, then descending.
    const method = page.locator('#table-scores thead th').first();
    await method.locator('button').click();
    expect(await method.getAttribute('aria-sort')).toBe('ascending');
    expect(await columnValues(page, 'scores', 0)).toEqual(['BM25 top-1 (best F1 over k) (k = 1)', 'brute force (nli-judge(lexical-nli(entail>=0.3,contradict>=0.3)), every document)', 'FastTrack (offline baselines)']);
    await method.locator('button').click();
    expect(await method.getAttribute('aria-sort')).toBe('descending');
    expect((await columnValues(page, 'scores', 0))[0]).toBe('FastTrack (offline baselines)');
    const sections = page.locator('details.statement');
    expect(await sections.count()).toBe(3);
    expect(await sections.nth(2).locator('summary').textContent()).toBe('S3: Etna is an active volcano <img src=x onerror=alert(1)> in Sicily.');
    expect(await page.locator('img, body svg:not(.chart) image').count()).toBe(0);
    const found = sections.first().locator('li[data-document="tennis-1"]').first();
    expect(await found.isVisible()).toBe(false);
    await sections.first().locator('summary').click();
    expect(await found.isVisible()).toBe(true);
    expect(await found.textContent()).toContain('Federer won Wimbledon eight times.');
    await done();
  });

  it('enrich: seven layouts in seven colours with whole legends, "<s> title </s>" as text, hand-checked Top@k, sorting by Top@1', async () => {
    const { page, facts, done } = await open('enrich');
    const legend = facts.charts[0]!.legend;
    expect(legend).toHaveLength(7);
    expect(legend[1]).toBe('case-2: passage: <s> title </s>');
    expect(legend[6]).toBe('case-7: passage: <s> title </s> document chunk </s>'); // case-1 and case-7 no longer share a colour
    expect(facts.charts[0]!.legendFills[0]).not.toBe(facts.charts[0]!.legendFills[6]);
    // By hand: every query shares a content word only with its own document's text (case 1: 4/4); the title alone
    // (case 2: the lead sentence) has no word of the airport and the retirement questions (2/4).
    const bar = (layout: string, k: number) => page.locator(`rect.bar[data-series^="${layout}:"][data-group="Top@${k}"]`).getAttribute('data-value');
    for (const k of [1, 3, 5, 10]) {
      expect(Number(await bar('case-1', k))).toBe(1);
      expect(Number(await bar('case-2', k))).toBe(0.5);
    }
    expect(await page.locator('#table-top-k tbody tr').nth(1).locator('td').allTextContents()).toEqual(['case-2', 'passage: <s> title </s>', '50.0', '50.0', '50.0', '50.0']);
    const top1 = page.locator('#table-top-k thead th').nth(2);
    await top1.locator('button').click();
    expect((await columnValues(page, 'top-k', 2)).map(Number)).toEqual([0.5, 1, 1, 1, 1, 1, 1]);
    await top1.locator('button').click();
    expect((await columnValues(page, 'top-k', 2)).map(Number)).toEqual([1, 1, 1, 1, 1, 1, 0.5]);
    const titleOnly = page.locator('details.layout').nth(1);
    await titleOnly.locator('summary').click();
    expect(await titleOnly.locator('ul.misses li').allTextContents()).toEqual(['Which airport closes because of eruptions? → etna', 'When did the Swiss player retire? → fed']);
    expect(await page.locator('script').count()).toBe(1); // the page's own; the corpus's <script> is text
    await done();
  });

  it('eval: two runs in two colours on a 0–1 score axis, † marks on the significant cells, sorting by nDCG keeps missing values last', async () => {
    const { page, facts, done } = await open('eval');
    expect(facts.charts[0]!.legend).toEqual(['a.trec', 'b.trec']);
    expect(facts.charts[0]!.yAxis).toBe('mean over queries (score)');
    expect(await page.locator('#table-runs sup.sig').allTextContents()).toEqual(['†', '†']);
    expect(await page.locator('#table-runs td.best').count()).toBe(2);
    const ndcg = page.locator('#table-runs thead th').nth(2);
    await ndcg.locator('button').click();
    const sorted = (await columnValues(page, 'runs', 2)).map(Number);
    expect(sorted[0]).toBeCloseTo(1 / Math.log2(3), 12);
    expect(sorted[1]).toBe(1);
    // The t-test column has an undefined p (recall: every difference 0): it stays last in both directions.
    const tTest = page.locator('#table-paired thead th').nth(4);
    await tTest.locator('button').click();
    expect((await columnValues(page, 'paired', 4)).at(-1)).toBe('');
    await tTest.locator('button').click();
    expect((await columnValues(page, 'paired', 4)).at(-1)).toBe('');
    await done();
  });
});
