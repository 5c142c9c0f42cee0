#!/usr/bin/env node
// Release metadata of every published package (every packages/*/package.json without "private": true):
// LICENSE file (the license tooling/release.config.json states), engines.node (the range that can require() an
// ESM-only package), repository (with directory), homepage, bugs, keywords, files (dist + LICENSE, README.md,
// CHANGELOG.md), and a README with an Install section naming the package and a Quick start example of at most
// `readme.maxQuickStartLines` code lines that imports the package. And no third-party data: every data file the
// tarball would hold (from "files", plain paths) or that src/ holds (bundled into dist) must be on the package's
// allow-list of project-made data, tooling/release.config.json "projectData" (tooling/lib/packed-files.mjs).
//   node tooling/check-packages.mjs          check; exits 1 with one line per problem
//   node tooling/check-packages.mjs --fix    also writes what can be derived (never keywords, README or dependencies)
//   node tooling/check-packages.mjs --tarball a.tgz [b.tgz ...]   only the data allow-list, on packed tarballs
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packedPaths, sourceDataPaths, tarballName, tarballPaths, unlistedDataFiles } from './lib/packed-files.mjs';
import { publishedPackages, releaseConfig as config, root } from './lib/workspace.mjs';

const fix = process.argv.includes('--fix');
const problems = [];
const REQUIRED_FILES = ['dist', 'LICENSE', 'README.md', 'CHANGELOG.md'];

function expected(dir) {
  return {
    license: config.license,
    engines: { node: config.nodeEngines.esmOnly },
    repository: { type: 'git', url: config.repositoryUrl, directory: `packages/${dir}` },
    homepage: `${config.webUrl}/tree/${config.defaultBranch}/packages/${dir}#readme`,
    bugs: { url: `${config.webUrl}/issues` },
  };
}

export function licenseText(year = new Date().getUTCFullYear()) {
  if (config.license !== 'MIT') throw new Error(`tooling/check-packages.mjs only knows the MIT text, not ${config.license}`);
  return `MIT License

Copyright (c) ${year} ${config.copyrightHolder}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Markdown sections by `## ` heading (fenced code is kept inside its section). */
function sections(markdown) {
  const out = new Map();
  let current = null;
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (!inFence && /^## /.test(line)) {
      current = line.slice(3).trim().toLowerCase();
      out.set(current, []);
    } else if (current !== null) out.get(current).push(line);
  }
  return new Map([...out].map(([k, v]) => [k, v.join('\n')]));
}

function firstCodeBlock(text) {
  const match = /^\s*(```|~~~)[^\n]*\n([\s\S]*?)^\s*\1/m.exec(text);
  return match ? match[2] : null;
}

function checkReadme(pkg, report) {
  const name = pkg.manifest.name;
  const readmePath = join(pkg.path, 'README.md');
  if (!existsSync(readmePath)) return report('README.md is missing');
  const parts = sections(readFileSync(readmePath, 'utf8'));
  const install = parts.get('install');
  if (install === undefined) report('README.md has no "## Install" section');
  else if (!new RegExp(`\\bnpm (i|install) [^\\n]*${name.replace(/[/.]/g, '\\$&')}(\\s|$)`).test(install)) report(`README.md "## Install" does not show \`npm i ${name}\``);
  // The module format and the Node range, in the words of release.config.json (nodeEngines.readmeLine).
  else if (!install.includes(config.nodeEngines.readmeLine)) report(`README.md "## Install" does not say "${config.nodeEngines.readmeLine}"`);
  const quick = parts.get('quick start');
  if (quick === undefined) return report('README.md has no "## Quick start" section');
  const code = firstCodeBlock(quick);
  if (code === null) return report('README.md "## Quick start" has no code block');
  const lines = code.split('\n').filter((l) => l.trim() !== '');
  if (lines.length > config.readme.maxQuickStartLines) report(`README.md "## Quick start" example has ${lines.length} code lines (at most ${config.readme.maxQuickStartLines})`);
  if (!code.includes(`'${name}'`) && !code.includes(`"${name}"`)) report(`README.md "## Quick start" example does not import '${name}'`);
}

/** Inserts/replaces top-level keys without reformatting the rest of the file (keeps merges small). */
export function patchManifest(text, updates) {
  const format = (value) =>
    JSON.stringify(value)
      .replace(/","/g, '", "')
      .replace(/":/g, '": ')
      .replace(/^\{(.+)\}$/, '{ $1 }');
  let out = text;
  const inserts = [];
  for (const [key, value] of Object.entries(updates)) {
    const oneLine = new RegExp(`^(\\s*)"${key}": *(?:\\{[^\\n]*\\}|\\[[^\\n]*\\]|"[^"\\n]*")(,?)$`, 'm');
    const multiLine = new RegExp(`^(\\s*)"${key}": *([[{])\\n[^]*?\\n\\1[\\]}](,?)$`, 'm');
    if (oneLine.test(out)) out = out.replace(oneLine, (_m, indent, comma) => `${indent}"${key}": ${format(value)}${comma}`);
    else if (multiLine.test(out)) out = out.replace(multiLine, (_m, indent, _open, comma) => `${indent}"${key}": ${format(value)}${comma}`);
    else inserts.push([key, value]);
  }
  if (inserts.length > 0) {
    const anchor = /^(\s*)"license":[^\n]*,$/m.exec(out) ?? /^(\s*)"description":[^\n]*,$/m.exec(out) ?? /^(\s*)"version":[^\n]*,$/m.exec(out);
    if (!anchor) throw new Error('no "license"/"description"/"version" line to insert after');
    const at = anchor.index + anchor[0].length;
    out = `${out.slice(0, at)}${inserts.map(([k, v]) => `\n${anchor[1]}"${k}": ${format(v)},`).join('')}${out.slice(at)}`;
  }
  JSON.parse(out); // never write a broken manifest
  return out;
}

const projectData = (name) => Object.fromEntries(Object.entries(config.projectData?.[name] ?? {}).filter(([path]) => !path.startsWith('$')));

const tarballAt = process.argv.indexOf('--tarball');
if (tarballAt !== -1) {
  const tarballs = process.argv.slice(tarballAt + 1);
  if (tarballs.length === 0) problems.push('--tarball needs at least one .tgz path');
  for (const tarball of tarballs) {
    const name = tarballName(tarball);
    for (const message of unlistedDataFiles(name, tarballPaths(tarball), projectData(name))) problems.push(`${tarball} (${name}): ${message}`);
  }
  if (problems.length > 0) {
    console.error(`Tarball data problems (${problems.length}):\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`tarballs ok: ${tarballs.length} checked, no data file outside the project-made allow-list`);
  process.exit(0);
}

const packages = publishedPackages();
for (const pkg of packages) {
  const { manifest, dir } = pkg;
  const where = `packages/${dir} (${manifest.name ?? 'unnamed'})`;
  const report = (message) => problems.push(`${where}: ${message}`);
  const want = expected(dir);
  const updates = {};

  if (manifest.name !== `@factkit/${dir}`) report(`"name" should be "@factkit/${dir}" (package directory name)`);
  if (typeof manifest.description !== 'string' || manifest.description.length < 10) report('"description" is missing');
  for (const key of ['license', 'engines', 'repository', 'homepage', 'bugs']) {
    if (!same(manifest[key], want[key])) {
      report(`"${key}" should be ${JSON.stringify(want[key])}${manifest[key] === undefined ? ' (missing)' : `, found ${JSON.stringify(manifest[key])}`}`);
      updates[key] = want[key];
    }
  }
  if (manifest.type !== 'module') report('"type" should be "module" (ESM-only, STYLE.md §4); engines.node assumes it');
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0 || manifest.keywords.some((k) => typeof k !== 'string' || k.trim() === '')) report('"keywords" is missing or empty (add a few search words by hand)');
  const files = Array.isArray(manifest.files) ? manifest.files : [];
  const missingFiles = REQUIRED_FILES.filter((f) => !files.includes(f));
  if (missingFiles.length > 0) {
    report(`"files" lacks ${missingFiles.map((f) => JSON.stringify(f)).join(', ')}`);
    updates.files = [...files, ...missingFiles];
  }
  const licensePath = join(pkg.path, 'LICENSE');
  if (!existsSync(licensePath)) {
    report(`LICENSE file is missing (${config.license}, "${config.copyrightHolder}")`);
    if (fix) writeFileSync(licensePath, licenseText());
  } else if (!readFileSync(licensePath, 'utf8').startsWith(`${config.license} License`)) report(`LICENSE does not start with "${config.license} License"`);
  checkReadme(pkg, report);
  const allow = projectData(manifest.name);
  const packed = packedPaths(pkg.path, files);
  for (const entry of packed.unsupported) report(`"files" entry ${JSON.stringify(entry)} is not a plain path (a file or folder): the data allow-list check lists the tarball from plain paths`);
  const shipped = [...packed.paths, ...sourceDataPaths(pkg.path)];
  for (const message of unlistedDataFiles(manifest.name, shipped, allow)) report(message);
  for (const path of Object.keys(allow)) if (!shipped.includes(path)) report(`projectData["${manifest.name}"] lists "${path}", which the package does not ship: remove the stale entry`);
  if (fix && Object.keys(updates).length > 0) {
    const manifestPath = join(pkg.path, 'package.json');
    writeFileSync(manifestPath, patchManifest(readFileSync(manifestPath, 'utf8'), updates));
  }
}

if (packages.length === 0) problems.push('no published package found under packages/*/package.json');
if (problems.length > 0) {
  console.error(`Package release metadata problems (${problems.length}; fields derivable from tooling/release.config.json: node tooling/check-packages.mjs --fix):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(`packages ok: ${packages.length} published (${packages.map((p) => p.manifest.name).join(', ')})`);
