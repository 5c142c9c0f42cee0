import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Run } from '@factkit/core';
import { evaluateRun } from '@factkit/metrics';
import { createBm25Retriever, deserializeBm25Index } from '@factkit/retrieval';
import { type Browser, chromium } from 'playwright-core';
import { describeWithData } from '@factkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPage, DIST_DIRECTORY } from '../src/build.js';
import { EVALUATION_DEPTH, EVALUATION_FILE, type EvaluationData, INDEX_FILE, MEASURES, RESULTS_SHOWN } from '../src/page/settings.js';
import { type StaticServer, startStaticServer } from '../src/static-server.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`browser.test.ts skipped: ${CHROMIUM} is missing (CI installs it: apt-get install -y chromium)`);
const OUT = fileURLToPath(new URL('../out/', import.meta.url));
// Typed into the page like a user would. Not a SciFact claim verbatim, so the page is not only replaying the eval set.
const CLAIM = 'Vitamin D deficiency raises the risk of respiratory infections';

// Independent truth for the whole pipeline: the SciFact yardstick of docs/retrieval.md (Anserini-compatible BM25 on the
// 240 test claims of the data root's SciFact, pinned by packages/retrieval/test/scifact.test.ts).
const YARDSTICK = { ndcg_cut_10: 0.696649, recall_100: 0.917083, map: 0.659107 };

describeWithData('scifact', 'browser-search', (scifact) => {
  describe.skipIf(!hasChromium)('in a real browser (Debian chromium + playwright-core)', () => {
    let server: StaticServer;
    let browser: Browser;
    let data: EvaluationData;
    let retriever: ReturnType<typeof createBm25Retriever>;

    beforeAll(async () => {
      // `pnpm test` builds first (turbo: test dependsOn build); a bare `vitest run` builds here.
      if (!existsSync(join(DIST_DIRECTORY, 'index.html')) || !existsSync(join(DIST_DIRECTORY, INDEX_FILE))) await buildPage(scifact);
      // The Node run: the very bytes the page fetches, deserialized by the same library in Node.
      retriever = createBm25Retriever(deserializeBm25Index(new Uint8Array(await readFile(join(DIST_DIRECTORY, INDEX_FILE)))));
      data = JSON.parse(await readFile(join(DIST_DIRECTORY, EVALUATION_FILE), 'utf8')) as EvaluationData;
      server = await startStaticServer(DIST_DIRECTORY);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
      });
    });

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('searches a typed claim like Node does, highlights its terms, evaluates the test claims like Node does, and saves a screenshot', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(server.url);
      await page.locator('#query:not([disabled])').waitFor({ timeout: 60_000 });

      await page.locator('#query').pressSequentially(CLAIM);
      await page.locator('#query').press('Enter');
      const results = page.locator(`#results[data-query="${CLAIM}"] li.result`);
      await results.first().waitFor();
      const shown = await results.evaluateAll((items) => items.map((item) => ({ id: item.getAttribute('data-id'), score: Number(item.getAttribute('data-score')) })));

      const node = await retriever.retrieve({ query: { text: CLAIM }, topK: RESULTS_SHOWN });
      expect(node.evidence).toHaveLength(RESULTS_SHOWN);
      expect(shown).toEqual(node.evidence.map((hit) => ({ id: hit.documentId, score: hit.score })));

      // Highlighting: every marked word is a query term after analysis, and each shown abstract marks at least one.
      const queryTerms = new Set(retriever.index.analyzer.analyze(CLAIM));
      const marks = await page.locator('#results li.result mark').allTextContents();
      expect(marks.length).toBeGreaterThan(RESULTS_SHOWN);
      for (const mark of marks)
        expect(
          retriever.index.analyzer.analyze(mark).some((term) => queryTerms.has(term)),
          mark,
        ).toBe(true);
      expect(await results.evaluateAll((items) => items.every((item) => item.querySelector('mark') !== null))).toBe(true);
      const firstAbstract = await results.first().locator('.abstract').textContent();
      expect(firstAbstract).toBe(retriever.index.getDocument(node.evidence[0]!.documentId)?.text);

      // Evaluation on the page vs the same run computed here with @factkit/metrics.
      await page.locator('#evaluation[data-state="done"]').waitFor({ timeout: 90_000 });
      const pageValues = Object.fromEntries(await page.locator('#evaluation tr[data-measure]').evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-measure'), Number(row.getAttribute('data-value'))])));
      const run: Record<string, Record<string, number>> = {};
      for (const query of data.queries) {
        const { evidence } = await retriever.retrieve({ query: { text: query.text }, topK: EVALUATION_DEPTH });
        run[query.id] = Object.fromEntries(evidence.map((hit) => [hit.documentId, hit.score]));
      }
      const nodeResult = evaluateRun(data.qrels, run as Run, { metrics: [...MEASURES] });
      expect(nodeResult.evaluatedQueries).toHaveLength(240); // the 240 of SciFact's 300 test claims in the data root's scifact/
      for (const measure of MEASURES) {
        expect(pageValues[measure], measure).toBe(nodeResult.aggregate[measure]);
        expect(nodeResult.aggregate[measure], `${measure} vs the SciFact yardstick`).toBeCloseTo(YARDSTICK[measure], 5);
      }

      const timings = await page.evaluate(() => window.factkitTimings);
      expect(timings.firstResult).toBeGreaterThan(timings.indexReady ?? Number.POSITIVE_INFINITY);
      expect(errors).toEqual([]);
      // A static page: everything it asked for came from the local static server.
      expect(
        requested.every((url) => url.startsWith(server.url)),
        requested.join(', '),
      ).toBe(true);
      expect(server.requests).toEqual(expect.arrayContaining(['/', '/app.js', `/${INDEX_FILE}`, `/${EVALUATION_FILE}`]));

      await mkdir(OUT, { recursive: true });
      await page.screenshot({ path: join(OUT, 'browser-search.png'), fullPage: false });
      expect(existsSync(join(OUT, 'browser-search.png'))).toBe(true);
      await page.close();
    });

    it('shows the error when the index cannot be fetched (a broken deploy is not an empty result)', async () => {
      const page = await browser.newPage();
      await page.route(`**/${INDEX_FILE}`, (route) => route.fulfill({ status: 404, body: 'not found' }));
      await page.goto(server.url);
      const status = page.locator('#status[data-state="error"]');
      await status.waitFor({ timeout: 30_000 });
      expect(await status.textContent()).toContain(`cannot fetch ${INDEX_FILE} (HTTP 404)`);
      expect(await page.locator('#query').isDisabled()).toBe(true);
      await page.close();
    });
  });
});
