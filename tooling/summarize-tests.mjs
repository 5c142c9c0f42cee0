#!/usr/bin/env node
// Prints one closing line for every package's vitest run: "N passed, N failed, N skipped", and one line counting the
// tests that need the data root (suites tagged by @factkit/test-utils' describeWithData): how many were skipped
// because $FACTKIT_DATA (or ../shared/data beside the checkout) is missing ("[no data: …]"), how many ran ("[data: …]").
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
let dataRan = 0;
let dataSkipped = 0;
const SKIPPED = new Set(['skipped', 'pending', 'todo', 'disabled']);
const rows = [];
for (const group of ['packages', 'examples']) {
  for (const name of readdirSync(join(root, group))) {
    const file = join(root, group, name, '.test-results.json');
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const skippedHere = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += skippedHere;
    for (const suite of report.testResults ?? []) {
      for (const test of suite.assertionResults ?? []) {
        const titles = test.ancestorTitles ?? [];
        if (titles.some((title) => title.includes('[no data: '))) dataSkipped += 1;
        else if (titles.some((title) => title.includes('[data: ')) && !SKIPPED.has(test.status)) dataRan += 1;
      }
    }
    rows.push(`${group}/${name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skippedHere} skipped`);
  }
}
console.log(rows.join('\n'));
if (dataSkipped > 0) console.log(`data: ${dataSkipped} tests skipped (no data root: set FACTKIT_DATA to a folder with scifact/, fever-lite/, golden/, … — see docs/contributing.md); ${dataRan} data tests ran`);
else console.log(`data: ${dataRan} tests ran on the data root, none skipped`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
