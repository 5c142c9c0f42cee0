#!/usr/bin/env node
// Exports per entry point of every published package, counted from the built `.d.ts` with the TypeScript compiler
// (run `pnpm build` first). A name is a "value" export when it has a runtime binding (function, const, class, enum,
// namespace with values) and a "type" export otherwise (interface, type alias); a class counts once, as a value.
//   node tooling/measure-exports.mjs            table per entry point + totals
//   node tooling/measure-exports.mjs --json     the same as JSON
//   node tooling/measure-exports.mjs --names    also list every exported name
import ts from 'typescript';
import { relative } from 'node:path';
import { entryPoints } from './lib/entry-points.mjs';
import { root } from './lib/workspace.mjs';

const json = process.argv.includes('--json');
const names = process.argv.includes('--names');

const entries = entryPoints();
const missing = entries.filter((e) => !e.built);
if (missing.length > 0) {
  console.error(`not built (run pnpm build): ${missing.map((e) => `${e.specifier} -> ${e.dts ? relative(root, e.dts) : 'no types'}`).join(', ')}`);
  process.exit(1);
}

// One program over every entry's .d.ts: declarations are resolved through the workspace's node_modules links.
const program = ts.createProgram(
  entries.map((e) => e.dts),
  { noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 },
);
const checker = program.getTypeChecker();

/** { name, kind: 'value' | 'type' } for every export of one declaration file. */
export function exportsOf(dts) {
  const source = program.getSourceFile(dts);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return [];
  return checker.getExportsOfModule(moduleSymbol).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return { name: symbol.getName(), kind: target.flags & ts.SymbolFlags.Value ? 'value' : 'type' };
  });
}

const rows = entries.map((e) => {
  const list = exportsOf(e.dts).sort((a, b) => a.name.localeCompare(b.name));
  const values = list.filter((x) => x.kind === 'value').length;
  return { entry: e.specifier, values, types: list.length - values, total: list.length, ...(names ? { names: list } : {}) };
});
const total = rows.reduce((acc, r) => ({ values: acc.values + r.values, types: acc.types + r.types, total: acc.total + r.total }), { values: 0, types: 0, total: 0 });

if (json) {
  console.log(JSON.stringify({ entries: rows, total }, null, 2));
} else {
  const width = Math.max(...rows.map((r) => r.entry.length), 'entry point'.length);
  const line = (a, b, c, d) => `${a.padEnd(width)}  ${String(b).padStart(6)}  ${String(c).padStart(6)}  ${String(d).padStart(6)}`;
  console.log(line('entry point', 'values', 'types', 'total'));
  for (const r of rows) {
    console.log(line(r.entry, r.values, r.types, r.total));
    if (names) console.log(r.names.map((n) => `    ${n.kind === 'type' ? 'type ' : ''}${n.name}`).join('\n'));
  }
  console.log(line(`total (${rows.length} entry points)`, total.values, total.types, total.total));
}
