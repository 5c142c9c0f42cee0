import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const qa = fileURLToPath(new URL('./fixtures/check/qa.jsonl', import.meta.url));
const beir = fileURLToPath(new URL('./fixtures/tiny-beir', import.meta.url));
const traceFixtures = fileURLToPath(new URL('./fixtures/trace/', import.meta.url));
const enrichFixtures = fileURLToPath(new URL('./fixtures/enrich/', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const LAUNCH = { executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] };
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

  it('the audit report: an inline SVG chart of baseline vs ALL/M/¬M with the hand-checked baseline bar, and the Markdown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-browser-'));
    const html = join(dir, 'audit.html');
    await run(process.execPath, [bin, 'audit', '--beir', beir, '--html', html], { env: { ...process.env, OPENAI_BASE_URL: '' } });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
      await page.goto(pathToFileURL(html).href);
      expect(await page.locator('h1').textContent()).toBe('factkit audit');
      const chart = page.locator('svg.chart');
      expect(await chart.isVisible()).toBe(true);
      // 4 metrics × (baseline, ALL, ¬M) drawn; M has no claim (RM3 generates no text) → a gap.
      expect(await chart.locator('rect.bar').count()).toBe(12);
      expect(await chart.locator('text.missing').count()).toBe(4);
      const baseline = await chart.locator('rect.bar[data-group="recall@5"]').first().getAttribute('data-value');
      expect(Number(baseline)).toBeCloseTo(2.5 / 3, 10);
      const box = await chart.locator('rect.bar[data-group="recall@5"]').first().boundingBox();
      expect(box!.height).toBeGreaterThan(150); // 83 % of the 220 px axis
      expect(await page.locator('details.markdown pre').textContent()).toMatch(/## Leakage study/);
      const screenshot = join(dir, 'audit.png');
      await page.screenshot({ path: screenshot });
      console.log(`screenshot: ${screenshot}`);
    } finally {
      await browser.close();
    }
  });

  it('the trace report: P/R/F1 per method as an SVG chart (hand-checked bars), escaped statements, an expandable statement section', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-browser-'));
    const html = join(dir, 'trace.html');
    await run(process.execPath, [bin, 'trace', '--corpus', join(traceFixtures, 'corpus.jsonl'), '--queries', join(traceFixtures, 'statements.jsonl'), '--k', '3', '--leaf-size', '4', '--html', html, '--json'], {
      env: { ...process.env, OPENAI_BASE_URL: '' },
      timeout: 240_000,
    });
    const browser = await chromium.launch(LAUNCH);
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(pathToFileURL(html).href);
      expect(await page.title()).toBe('factkit trace');
      expect(await page.locator('h1').textContent()).toBe('factkit trace');
      const chart = page.locator('svg.chart');
      expect(await chart.isVisible()).toBe(true);
      // 3 metrics × 3 methods (FastTrack, brute force, BM25 top-k).
      expect(await chart.locator('rect.bar').count()).toBe(9);
      expect(await chart.locator('rect.bar').evaluateAll((bars) => [...new Set(bars.map((bar) => bar.getAttribute('data-group')))])).toEqual(['precision', 'recall', 'F1']);
      // By hand: FastTrack finds tennis-1 (gold tennis-1, tennis-0) and aqueduct-0 (gold aqueduct-0): P = 1, R = (1/2 + 1)/2, F1 = (2/3 + 1)/2.
      const fasttrack = (group: string) => chart.locator(`rect.bar[data-group="${group}"][data-series^="FastTrack"]`).getAttribute('data-value');
      expect(Number(await fasttrack('precision'))).toBe(1);
      expect(Number(await fasttrack('recall'))).toBe(0.75);
      expect(Number(await fasttrack('F1'))).toBeCloseTo(5 / 6, 12);
      expect(await page.locator('details.markdown pre').textContent()).toMatch(/\| FastTrack \(offline baselines\) \| 2 \| 100\.0 ± 0\.0 \| 75\.0 ± 25\.0 \| 83\.3 ± 16\.7 \|/);
      // One collapsed section per statement; the corpus and statement markup is text, never elements.
      const sections = page.locator('details.statement');
      expect(await sections.count()).toBe(3);
      expect(await sections.nth(2).locator('summary').textContent()).toBe('S3: Etna is an active volcano <img src=x onerror=alert(1)> in Sicily.');
      expect(await page.locator('img, script, body svg:not(.chart) image').count()).toBe(0);
      const first = sections.first();
      const found = first.locator('li[data-document="tennis-1"]').first();
      expect(await found.isVisible()).toBe(false);
      await first.locator('summary').click();
      expect(await first.getAttribute('open')).not.toBeNull();
      expect(await found.isVisible()).toBe(true);
      expect(await found.getAttribute('class')).toBe('gold');
      expect(await found.textContent()).toContain('Federer won Wimbledon eight times.');
      const screenshot = join(dir, 'trace.png');
      await page.screenshot({ path: screenshot, fullPage: true });
      expect(statSync(screenshot).size).toBeGreaterThan(10_000);
      console.log(`screenshot: ${screenshot}`);
      expect(requests).toEqual([pathToFileURL(html).href]);
      expect(dialogs).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 240_000);

  it('the enrich report: Top@k per layout as an SVG chart (hand-checked bars), an expandable layout section with the missed queries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-browser-'));
    const html = join(dir, 'enrich.html');
    await run(process.execPath, [bin, 'enrich', '--input', join(enrichFixtures, 'docs.jsonl'), '--out', join(dir, 'chunks.jsonl'), '--queries', join(enrichFixtures, 'queries.jsonl'), '--max-tokens', '64', '--html', html], {
      env: { ...process.env, OPENAI_BASE_URL: '' },
    });
    const browser = await chromium.launch(LAUNCH);
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(pathToFileURL(html).href);
      expect(await page.title()).toBe('factkit enrich');
      const chart = page.locator('svg.chart');
      expect(await chart.isVisible()).toBe(true);
      // 4 cut-offs × the 7 layouts of the paper's Table 7.
      expect(await chart.locator('rect.bar').count()).toBe(28);
      expect(await chart.locator('rect.bar').evaluateAll((bars) => [...new Set(bars.map((bar) => bar.getAttribute('data-series')))])).toEqual(['case-1', 'case-2', 'case-3', 'case-4', 'case-5', 'case-6', 'case-7']);
      // By hand: one chunk per document; every query shares a content word only with its own document's text (case 1:
      // 4/4), while the title alone (case 2: the lead sentence) has no word of the airport and the retirement questions (2/4).
      const bar = (layout: string, k: number) => chart.locator(`rect.bar[data-series="${layout}"][data-group="Top@${k}"]`).getAttribute('data-value');
      for (const k of [1, 3, 5, 10]) {
        expect(Number(await bar('case-1', k))).toBe(1);
        expect(Number(await bar('case-2', k))).toBe(0.5);
      }
      const sections = page.locator('details.layout');
      expect(await sections.count()).toBe(7);
      const titleOnly = sections.nth(1);
      expect(await titleOnly.locator('summary').textContent()).toBe('case-2: passage: <s> title </s>');
      const misses = titleOnly.locator('ul.misses li');
      expect(await misses.first().isVisible()).toBe(false);
      await titleOnly.locator('summary').click();
      expect(await misses.first().isVisible()).toBe(true);
      expect(await misses.allTextContents()).toEqual(['Which airport closes because of eruptions? → etna', 'When did the Swiss player retire? → fed']);
      // The corpus's <script> is shown as text in the example passages, never run.
      expect(await page.locator('script').count()).toBe(0);
      await sections.nth(0).locator('summary').click();
      expect(await sections.nth(0).locator('.examples').textContent()).toContain('<script>alert(1)</script>');
      const screenshot = join(dir, 'enrich.png');
      await page.screenshot({ path: screenshot, fullPage: true });
      expect(statSync(screenshot).size).toBeGreaterThan(10_000);
      console.log(`screenshot: ${screenshot}`);
      expect(requests).toEqual([pathToFileURL(html).href]);
    } finally {
      await browser.close();
    }
  });
});
