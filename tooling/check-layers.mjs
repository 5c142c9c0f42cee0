#!/usr/bin/env node
// Checks DESIGN.md's layering: imports only point down. Reads every packages/*/package.json's dependencies and every
// import in packages/*/src, and fails when a package reaches a package it may not use.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const LAYER = {
  core: 0,
  'test-utils': 1,
  retrieval: 1,
  metrics: 1,
  openai: 1,
  serper: 1,
  'use-lite': 1,
  glove: 1,
  transformers: 1,
  'nli-models': 1,
  'search-cluster': 1,
  expansion: 2,
  'nli-match': 2,
  'claim-query': 2,
  fasttrack: 2,
  'chunk-knowledge': 2,
  // L3: applications over the library (the `factkit` command line); may import any package below.
  cli: 3,
  // L3 adapter to another ecosystem (LangChain.js): above the paper packages because its checker runnable composes
  // claim-query, but a thin adapter: ADAPTER_ALLOWED limits what it may import.
  langchain: 3,
};
// What each ecosystem adapter may import from @factkit (everything else it gets as a core interface).
const ADAPTER_ALLOWED = { langchain: new Set(['core', 'claim-query']) };
// What each layer-2 package may import from @factkit: core and metrics only.
const ALLOWED_FOR_L2 = new Set(['core', 'metrics']);
// Documented exceptions (docs/contributing.md). None today: the BEIR evaluation moved from retrieval to @factkit/cli.
const EXCEPTIONS = new Set([]);
const root = new URL('..', import.meta.url).pathname;
const problems = [];

function sourceFiles(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(name) && !/\.test(-d)?\.ts$/.test(name) ? [path] : [];
  });
}

for (const name of readdirSync(join(root, 'packages'))) {
  const manifestPath = join(root, 'packages', name, 'package.json');
  if (!existsSync(manifestPath)) continue;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const layer = LAYER[name];
  if (layer === undefined) {
    problems.push(`packages/${name}: not placed in a layer (add it to tooling/check-layers.mjs and DESIGN.md)`);
    continue;
  }
  const used = new Set(
    Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
      .filter((d) => d.startsWith('@factkit/'))
      .map((d) => d.slice(9)),
  );
  for (const file of sourceFiles(join(root, 'packages', name, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]@factkit\/([a-z-]+)/g)) used.add(match[1]);
  }
  used.delete(name);
  for (const target of used) {
    const targetLayer = LAYER[target];
    if (target === 'tsconfig' || EXCEPTIONS.has(`${name}->${target}`)) continue;
    if (targetLayer === undefined) problems.push(`packages/${name} imports unknown @factkit/${target}`);
    else if (targetLayer >= layer && !(layer === 1 && target === 'core')) problems.push(`packages/${name} (L${layer}) imports @factkit/${target} (L${targetLayer}): imports must point down`);
    else if (layer === 2 && !ALLOWED_FOR_L2.has(target)) problems.push(`packages/${name} (L2) imports @factkit/${target}: paper packages take models and retrievers as core interfaces`);
    else if (ADAPTER_ALLOWED[name] && !ADAPTER_ALLOWED[name].has(target) && target !== 'test-utils') problems.push(`packages/${name} (adapter) imports @factkit/${target}: adapters take other packages' objects as core interfaces`);
    if (target === 'test-utils' && layer !== undefined && manifest.dependencies?.['@factkit/test-utils']) problems.push(`packages/${name}: @factkit/test-utils must be a devDependency`);
  }
}
if (problems.length > 0) {
  console.error(`Layering problems:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('layers ok');
