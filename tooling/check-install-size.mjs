#!/usr/bin/env node
// Install size stays honest. For every published package (packages/*/package.json without "private": true) this
// measures, from the pnpm store on disk (node_modules/.pnpm, with `du -sk`), each direct runtime dependency
// ("dependencies"; required peers of dependencies count, because npm installs them; optional peers are the user's choice and are listed, not counted) and that dependency's own
// transitive closure, plus the whole closure the package pulls (through its @factkit/* dependencies too).
// Fails when a package depends on something whose closure exceeds installSize.limitMB in
// tooling/release.config.json, unless "<package> -> <dependency>" is in installSize.allow with the reason, and then
// the package's README must name the dependency and a size in MB in its "## Install" section.
//   node tooling/check-install-size.mjs [--json]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { publishedPackages, releaseConfig as config, root, workspacePackages } from './lib/workspace.mjs';

const limitKB = config.installSize.limitMB * 1024;
const allow = config.installSize.allow;
const problems = [];
const sizeCache = new Map();
const workspaceDirs = new Map(workspacePackages().map((p) => [realpathSync(p.path), p]));

function sizeKB(dir) {
  if (!sizeCache.has(dir)) sizeCache.set(dir, Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]));
  return sizeCache.get(dir);
}

/** Where `name` resolves from package directory `fromDir` (Node's lookup: node_modules up the tree). */
function resolveDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dir === dirname(dir)) return null;
  }
}

const readManifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** External (non-workspace) package directories reachable from `dir` through dependencies, optionalDependencies
 * and required (non-optional) peerDependencies;
 * workspace packages are walked through but not counted (they are published on their own). */
function closure(dir, seen = new Set(), missing = []) {
  const manifest = readManifest(dir);
  // npm >= 7 installs peers that are not marked optional, so they count.
  const requiredPeers = Object.keys(manifest.peerDependencies ?? {}).filter((n) => !manifest.peerDependenciesMeta?.[n]?.optional);
  const names = [...new Set([...Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }), ...requiredPeers])];
  for (const name of names) {
    const target = resolveDir(name, dir);
    if (target === null) {
      if (!(name in (manifest.optionalDependencies ?? {}))) missing.push(`${manifest.name} -> ${name}`);
      continue;
    }
    if (seen.has(target)) continue;
    seen.add(target);
    closure(target, seen, missing);
  }
  return { dirs: seen, missing };
}

const sum = (dirs) => [...dirs].filter((d) => !workspaceDirs.has(d)).reduce((total, d) => total + sizeKB(d), 0);
const mb = (kb) => (kb / 1024).toFixed(1);
const rows = [];

for (const pkg of publishedPackages()) {
  const { manifest } = pkg;
  const packageDir = realpathSync(pkg.path);
  const all = closure(packageDir);
  for (const m of all.missing) problems.push(`${manifest.name}: dependency ${m} is not installed (run pnpm install)`);
  const direct = [];
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const target = resolveDir(name, packageDir);
    if (target === null) continue;
    if (workspaceDirs.has(target)) {
      direct.push({ name, workspace: true, ownKB: 0, closureKB: sum(closure(target).dirs) });
      continue;
    }
    const own = sizeKB(target);
    const closureKB = own + sum(closure(target).dirs);
    direct.push({ name, version: readManifest(target).version, ownKB: own, closureKB, store: relative(root, target) });
    const key = `${manifest.name} -> ${name}`;
    if (closureKB > limitKB) {
      if (!(key in allow))
        problems.push(
          `${key}: ${mb(closureKB)} MB installed (limit ${config.installSize.limitMB} MB). Drop it, make it an optional peer, or add "${key}" with the reason to installSize.allow in tooling/release.config.json and say the size in the README's Install section.`,
        );
      else {
        const readme = existsSync(join(pkg.path, 'README.md')) ? readFileSync(join(pkg.path, 'README.md'), 'utf8') : '';
        const install = /^## Install\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? '';
        if (!install.includes(name) || !/\d+\s*MB/.test(install)) problems.push(`${key}: allowed large dependency (${mb(closureKB)} MB) but packages/${pkg.dir}/README.md "## Install" does not name ${name} with its size in MB`);
      }
    }
  }
  const optionalPeers = Object.keys(manifest.peerDependencies ?? {}).filter((n) => manifest.peerDependenciesMeta?.[n]?.optional);
  rows.push({ name: manifest.name, direct, totalKB: sum(all.dirs), optionalPeers });
}
for (const key of Object.keys(allow)) {
  const [pkgName, dep] = key.split(' -> ');
  const row = rows.find((r) => r.name === pkgName);
  if (row && !row.direct.some((d) => d.name === dep)) problems.push(`installSize.allow has "${key}" but ${pkgName} no longer depends on ${dep}: remove the entry`);
}

if (process.argv.includes('--json')) console.log(JSON.stringify(rows, null, 2));
else {
  console.log('| package | direct dependency | own MB | with its deps MB | package total MB (external deps) |');
  console.log('|---|---|---:|---:|---:|');
  for (const row of rows) {
    const deps = row.direct.length > 0 ? row.direct : [{ name: '(none)', ownKB: 0, closureKB: 0, workspace: true }];
    deps.forEach((d, i) =>
      console.log(
        `| ${i === 0 ? row.name : ''} | ${d.name}${d.version ? `@${d.version}` : ''}${d.workspace && d.name !== '(none)' ? ' (workspace)' : ''} | ${d.workspace ? '–' : mb(d.ownKB)} | ${mb(d.closureKB)} | ${i === 0 ? mb(row.totalKB) : ''} |`,
      ),
    );
    if (row.optionalPeers.length > 0) console.log(`| | optional peers, not installed by default: ${row.optionalPeers.join(', ')} | | | |`);
  }
}
if (problems.length > 0) {
  console.error(`Install size problems:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.error(`install size ok (limit ${config.installSize.limitMB} MB per dependency, ${Object.keys(allow).length} documented exception(s))`);
