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
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`browser-report.test.ts skipped: ${CHROMIUM} is missing (CI installs it: apt-get install -y chromium)`);

describe.skipIf(!hasChromium)('factkit check HTML report in a real browser (Debian chromium + playwright-core)', () => {
  it('opens from file://, shows coloured sentences and labels, expands an evidence section, saves a screenshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-browser-'));
    const html = join(dir, 'report.html');
    const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '' };
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
      // The evidence is collapsed; clicking its summary expands it and shows the FEVER sentence with its source.
      const evidence = page.locator('section.item >> nth=0 >> details.evidence').first();
      const snippet = evidence.locator('li.snippet').first();
      expect(await snippet.isVisible()).toBe(false);
      await evidence.locator('summary').click();
      expect(await evidence.getAttribute('open')).not.toBeNull();
      expect(await snippet.isVisible()).toBe(true);
      expect(await snippet.textContent()).toMatch(/Soul Food is a 1997 American comedy-drama film.*source: FEVER-lite validation validation-0 \(Wikipedia\)/);
      // Badges carry the label colour too.
      expect(await page.locator('section.item >> nth=0 >> .sentence-block .badge').first().evaluate((badge) => getComputedStyle(badge).backgroundColor)).toBe(expected[colours[0]?.[0] ?? '']);
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
});
