#!/usr/bin/env node
// API report per published entry point: API Extractor over the built `.d.ts` (run `pnpm build` first), one file per
// entry point in api/ (`api/core.api.md` for `@factkit/core`, `api/core.node.api.md` for `@factkit/core/node`), so a
// change to the public surface shows up in review as a diff of api/.
//   node tooling/api-report.mjs           check (CI, `pnpm api:check`): fails and prints the diff when a report is
//                                         out of date, missing, or left over from a removed entry point
//   node tooling/api-report.mjs --update  rewrite api/ (`pnpm api:update`)
// One TypeScript program serves every entry point (API Extractor's CompilerState), so a run takes seconds.
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { entryPoints } from './lib/entry-points.mjs';
import { elapsed, root } from './lib/workspace.mjs';

const started = process.hrtime.bigint();
const update = process.argv.includes('--update');
const reportFolder = join(root, 'api');
const tempFolder = mkdtempSync(join(tmpdir(), 'factkit-api-report-'));

const entries = entryPoints();
const missing = entries.filter((e) => !e.built);
if (missing.length > 0) {
  console.error(`api report: not built (run pnpm build first): ${missing.map((e) => e.specifier).join(', ')}`);
  process.exit(1);
}

/** `core.api.md`, `core.node.api.md`, `core.testing.api.md`. */
const reportName = (e) => `${[e.dir, ...(e.subpath === '.' ? [] : e.subpath.replace(/^\.\//, '').split('/'))].join('.')}.api.md`;

// Messages: none is printed; what reviewers should see goes into the report itself (a type a public signature uses
// but the entry point does not export: ae-forgotten-export). Release tags (@public/@beta) are not used in factkit.
const messages = {
  compilerMessageReporting: { default: { logLevel: 'warning' } },
  extractorMessageReporting: {
    default: { logLevel: 'none', addToApiReportFile: true },
    'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
    'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
  },
  tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
};

const configFor = (e) =>
  ExtractorConfig.prepare({
    configObject: {
      projectFolder: e.path,
      mainEntryPointFilePath: e.dts,
      compiler: {
        overrideTsconfig: {
          compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], types: ['node'], skipLibCheck: true, strict: true },
          files: [e.dts],
        },
      },
      apiReport: { enabled: true, reportFileName: reportName(e), reportFolder: tempFolder, reportTempFolder: tempFolder },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: 'lf',
      messages,
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(e.path, 'package.json'),
  });

const configs = entries.map((e) => ({ entry: e, config: configFor(e) }));
const compilerState = CompilerState.create(configs[0].config, { additionalEntryPoints: entries.map((e) => e.dts) });

let failed = false;
const problems = [];
for (const { entry, config } of configs) {
  const result = Extractor.invoke(config, {
    compilerState,
    localBuild: true,
    messageCallback: (message) => {
      if (message.logLevel === ExtractorLogLevel.Error) problems.push(`${entry.specifier}: ${message.text}`);
      message.handled = true;
    },
  });
  if (!result.succeeded) {
    failed = true;
    problems.push(`${entry.specifier}: API Extractor failed (${result.errorCount} error(s), ${result.warningCount} warning(s))`);
  }
}

/**
 * The report as committed: API Extractor's text without what changes when nothing public did: the `@public` release
 * tags (factkit does not use release tags) and the "(undocumented)" markers (adding a doc comment is not an API
 * change), the line:column of a warning in the built file; the title names the entry point (`@factkit/core/node`), not only the package.
 */
function normalise(text, entry) {
  return text
    .replace(/^## API Report File for ".*"$/m, `## API Report File for "${entry.specifier}"`)
    .split('\n')
    .filter((line) => !/^\s*\/\/ (@public( \(undocumented\))?|\(undocumented\))$/.test(line))
    .map((line) => line.replace(/^\/\/ (dist\/\S+?):\d+:\d+ - /, '// $1 - '))
    .join('\n');
}

const expected = new Set(configs.map(({ entry }) => reportName(entry)));
const changed = [];
mkdirSync(reportFolder, { recursive: true });
for (const { entry } of configs) {
  const name = reportName(entry);
  const committed = join(reportFolder, name);
  const fresh = normalise(readFileSync(join(tempFolder, name), 'utf8'), entry);
  const before = existsSync(committed) ? readFileSync(committed, 'utf8') : undefined;
  if (before === fresh) continue;
  changed.push(before === undefined ? `${name} (new)` : name);
  if (update) {
    writeFileSync(committed, fresh);
  } else if (before !== undefined) {
    const freshFile = join(tempFolder, `${name}.normalised`);
    writeFileSync(freshFile, fresh);
    try {
      execFileSync('diff', ['-u', '--label', `api/${name} (committed)`, '--label', `api/${name} (built)`, committed, freshFile], { encoding: 'utf8' });
    } catch (error) {
      process.stderr.write(String(error.stdout ?? ''));
    }
  }
}
for (const file of readdirSync(reportFolder).filter((f) => f.endsWith('.api.md') && !expected.has(f))) {
  if (update) rmSync(join(reportFolder, file));
  changed.push(`${file} (${update ? 'removed' : 'left over'}: no such entry point)`);
}
rmSync(tempFolder, { recursive: true, force: true });

for (const p of problems) console.error(p);
if (failed) process.exit(1);
if (!update && changed.length > 0) {
  console.error(`api report: the public surface differs from api/ in ${changed.length} file(s): ${changed.join(', ')}`);
  console.error('If the change is intended, run `pnpm build && pnpm api:update` and commit api/.');
  process.exit(1);
}
console.log(`api report ${update ? 'written' : 'ok'}: ${entries.length} entry points${update && changed.length ? `; ${changed.join(', ')}` : ''} -> ${relative(root, reportFolder)}/ (${elapsed(started)} s)`);
