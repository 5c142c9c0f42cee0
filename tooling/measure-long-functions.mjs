#!/usr/bin/env node
// Functions longer than a limit (default 120 lines, first to last line of the function node) in the library and
// example sources (packages/*/src, examples/*/src; tests, benches and generated files are not counted), outside the
// performance kernels listed in KERNELS below: hot loops hand-unrolled for speed, whose length is the point.
// Every function is measured on its own (a long function's nested functions are measured separately too).
//   node tooling/measure-long-functions.mjs               list + totals
//   node tooling/measure-long-functions.mjs --max 80      another limit
//   node tooling/measure-long-functions.mjs --json
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './lib/workspace.mjs';

/** Excluded files (paths relative to the repo root; a trailing `/` excludes a folder) and why. */
export const KERNELS = [
  ['packages/retrieval/src/bm25/search-kernel.ts', 'BM25 top-k search kernel (block-max WAND / MaxScore loops)'],
  ['packages/retrieval/src/bm25/kernel/', 'BM25 WebAssembly kernel and its assembler'],
  ['packages/retrieval/src/dense/kernel/', 'dense dot-product / int8 WebAssembly kernels and their assemblers'],
  ['packages/retrieval/src/dense/scan-rows.ts', 'dense scan kernels (float32 / int8 / binary row scans)'],
  ['packages/fasttrack/src/internal/lloyd-kernel.ts', "fasttrack's Lloyd k-means kernel"],
];

const args = process.argv.slice(2);
const max = args.includes('--max') ? Number(args[args.indexOf('--max') + 1]) : 120;
const json = args.includes('--json');

const isKernel = (file) => KERNELS.some(([k]) => (k.endsWith('/') ? file.startsWith(k) : file === k));
const isSource = (name) => /\.(ts|tsx|mts)$/.test(name) && !/\.d\.ts$/.test(name) && !/\.(test|spec|bench)\.tsx?$/.test(name);

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (isSource(name)) yield path;
  }
}

function sourceFiles() {
  return ['packages', 'examples'].flatMap((group) =>
    readdirSync(join(root, group))
      .sort()
      .flatMap((pkg) => {
        const src = join(root, group, pkg, 'src');
        try {
          return statSync(src).isDirectory() ? [...walk(src)] : [];
        } catch {
          return [];
        }
      }),
  );
}

/** A readable name for a function-like node: its declared name, or what it is assigned / passed to. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) {
    const owner = ts.isClassLike(node.parent) && node.parent.name ? `${node.parent.name.text}.` : '';
    return `${owner}${node.name.text}`;
  }
  if (ts.isConstructorDeclaration(node)) return `${node.parent.name?.text ?? '(class)'}.constructor`;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

const found = [];
const kernelHits = [];
let functions = 0;
for (const path of sourceFiles()) {
  const file = relative(root, path);
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      functions += 1;
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      const lines = last - first + 1;
      if (lines > max) (isKernel(file) ? kernelHits : found).push({ file, line: first, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
found.sort((a, b) => b.lines - a.lines);

if (json) {
  console.log(JSON.stringify({ max, functions, over: found, kernelsExcluded: KERNELS.map(([path, why]) => ({ path, why })), inKernels: kernelHits }, null, 2));
} else {
  for (const f of found) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.file}:${f.line}`);
  const byGroup = (prefix) => found.filter((f) => f.file.startsWith(prefix)).length;
  console.log(`${found.length} function(s) over ${max} lines (packages/*/src ${byGroup('packages/')}, examples/*/src ${byGroup('examples/')}) of ${functions} functions measured`);
  console.log(`excluded performance kernels (${kernelHits.length} function(s) over ${max} there): ${KERNELS.map(([k]) => k).join(', ')}`);
}
