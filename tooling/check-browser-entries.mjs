#!/usr/bin/env node
// Browser-safe entries stay browser-safe. Each entry below is bundled from its BUILT package (dist, resolved through
// the package's "exports" exactly as a user's bundler would) with esbuild for `platform: 'browser'` and no Node
// polyfills. It fails when:
//   1. anything in the bundle imports a Node built-in (`node:*`, `fs`, `zlib`, `worker_threads`, ...), directly or
//      through other modules; the import chain from the entry is printed;
//   2. the bundle, evaluated in a fresh V8 context that has only browser-like globals (no `process`, `Buffer`,
//      `require`, `__dirname`, `global`), throws while loading: Node globals used at module top level.
// Node-only code lives behind each package's `/node` subpath (docs/<package>.md "In the browser").
// Run after `pnpm build` (dist must exist):   node tooling/check-browser-entries.mjs [--verbose]
import { builtinModules } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';
import { root } from './lib/workspace.mjs';

/** Entries that promise to run in a browser (package dir, import specifier). */
export const BROWSER_ENTRIES = [
  ['core', '@factkit/core'],
  ['core', '@factkit/core/testing'],
  ['metrics', '@factkit/metrics'],
  ['retrieval', '@factkit/retrieval'],
  ['nli-models', '@factkit/nli-models'],
];

const verbose = process.argv.includes('--verbose');
const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const isNodeBuiltin = (path) => path.startsWith('node:') || nodeBuiltins.has(path) || nodeBuiltins.has(path.split('/')[0]);

/** Globals a browser page (or a web worker) has; everything else a bundle reads at load time is an error. */
function browserContext() {
  const globals = {
    TextEncoder,
    TextDecoder,
    URL,
    URLSearchParams,
    AbortController,
    AbortSignal,
    Blob,
    atob,
    btoa,
    console,
    crypto: globalThis.crypto,
    performance,
    queueMicrotask,
    structuredClone,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    fetch: () => Promise.reject(new Error('no network in check-browser-entries')),
    Event,
    EventTarget,
    DOMException,
    Headers,
    Request,
    Response,
    ReadableStream,
    WritableStream,
    TransformStream,
    CompressionStream: globalThis.CompressionStream,
    DecompressionStream: globalThis.DecompressionStream,
    navigator: { hardwareConcurrency: 2, userAgent: 'check-browser-entries' },
  };
  const context = vm.createContext({ ...globals });
  context.self = context;
  context.window = context;
  context.globalThis = context;
  return context;
}

const problems = [];
for (const [dir, specifier] of BROWSER_ENTRIES) {
  const packageDir = join(root, 'packages', dir);
  if (!existsSync(join(packageDir, 'dist'))) {
    problems.push(`${specifier}: packages/${dir}/dist is missing (run pnpm build first)`);
    continue;
  }
  const nodeImports = [];
  const result = await build({
    stdin: { contents: `export * from '${specifier}';`, resolveDir: packageDir, sourcefile: 'entry.js', loader: 'js' },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName: '__entry',
    target: 'es2022',
    metafile: true,
    logLevel: 'silent',
    // Node built-ins are recorded and kept external, so the check reports every one (not only the first).
    plugins: [
      {
        name: 'record-node-builtins',
        setup(buildApi) {
          buildApi.onResolve({ filter: /.*/ }, (args) => {
            if (!isNodeBuiltin(args.path)) return undefined;
            nodeImports.push({ path: args.path, importer: args.importer });
            return { path: args.path, external: true };
          });
        },
      },
    ],
  }).catch((error) => ({ error }));
  if (result.error) {
    problems.push(`${specifier}: esbuild failed for platform browser: ${result.error.message}`);
    continue;
  }
  const inputs = result.metafile.inputs;
  // Reverse edges, to print one import chain from the entry to each offending module.
  const importedBy = new Map();
  for (const [file, input] of Object.entries(inputs)) {
    for (const edge of input.imports) if (!importedBy.has(edge.path)) importedBy.set(edge.path, file);
  }
  const chainTo = (file) => {
    const chain = [file];
    for (let at = file, guard = 0; importedBy.has(at) && guard < 50; guard++) {
      at = importedBy.get(at);
      chain.unshift(at);
    }
    return chain.map((f) => f.replace(/^.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(`${root}/`, '')).join(' -> ');
  };
  for (const { path, importer } of nodeImports) {
    const relativeImporter = Object.keys(inputs).find((file) => importer.endsWith(file)) ?? importer;
    problems.push(`${specifier}: imports Node built-in "${path}" via ${chainTo(relativeImporter)}`);
  }
  const code = result.outputFiles[0].text;
  const bytes = Buffer.byteLength(code);
  if (nodeImports.length === 0) {
    try {
      vm.runInContext(code, browserContext(), { filename: `${specifier}.browser-bundle.js` });
    } catch (error) {
      problems.push(`${specifier}: throws while loading in a browser-like context (Node global at module top?): ${error?.message ?? error}`);
    }
  }
  if (verbose) console.log(`${specifier}: ${Object.keys(inputs).length} modules, ${(bytes / 1024).toFixed(0)} KB unminified, ${nodeImports.length} Node imports`);
}

if (problems.length > 0) {
  console.error(`check-browser-entries: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-browser-entries: ${BROWSER_ENTRIES.map(([, s]) => s).join(', ')} bundle for the browser with no Node built-ins and load without Node globals`);
