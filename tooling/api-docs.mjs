#!/usr/bin/env node
// API reference from the TSDoc: TypeDoc over every published package's src/index.ts, and src/node.ts where a package
// has a `/node` subpath (packages/*/package.json without "private": true), HTML into docs/api (not committed: generated in CI, then link-checked).
// Fails on TypeDoc errors and on warnings about broken {@link} references.   node tooling/api-docs.mjs
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { elapsed, publishedPackages, root } from './lib/workspace.mjs';

const started = process.hrtime.bigint();
const entryPoints = publishedPackages()
  .flatMap((p) => [join('packages', p.dir, 'src', 'index.ts'), ...(p.manifest.exports?.['./node'] ? [join('packages', p.dir, 'src', 'node.ts')] : [])])
  .filter((f) => existsSync(join(root, f)));
const args = [
  join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'),
  ...entryPoints.flatMap((e) => ['--entryPoints', e]),
  '--tsconfig',
  'tooling/typedoc.tsconfig.json',
  '--out',
  'docs/api',
  '--plugin',
  join(root, 'tooling', 'typedoc-package-names.mjs'),
  '--name',
  'factkit API reference',
  '--readme',
  'none',
  '--excludePrivate',
  '--excludeInternal',
  '--githubPages',
  'false',
  '--disableSources',
  '--hideGenerator',
  '--logLevel',
  'Warn',
  '--validation.notExported',
  'false',
];
execFile(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
  const output = `${stdout}${stderr}`.trim();
  const brokenLinks = output.split('\n').filter((l) => /Failed to resolve link/i.test(l));
  if (output) console.error(output);
  if (error || brokenLinks.length > 0) {
    console.error(`api docs failed${brokenLinks.length ? `: ${brokenLinks.length} broken TSDoc link(s)` : ''}`);
    process.exit(1);
  }
  console.log(`api docs ok: ${entryPoints.length} entry points -> docs/api (${elapsed(started)} s)`);
});
