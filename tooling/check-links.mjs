#!/usr/bin/env node
// Link checker (offline): every relative link and anchor in docs/**/*.md, the root README.md and every
// packages/*/README.md and examples/*/README.md must resolve: the file exists, and a #fragment names a heading
// (GitHub's slugs, duplicates -1, -2 …) or an explicit id/name in the target. When docs/api (TypeDoc HTML, from
// `pnpm docs:api`) exists, its relative href links and their fragments are checked too. http(s)/mailto links are
// not fetched (CI is offline).   node tooling/check-links.mjs
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { elapsed, root } from './lib/workspace.mjs';

const started = process.hrtime.bigint();
const problems = [];
const anchorCache = new Map();

function walk(dir, pattern, skip = () => false) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.') || skip(path)) return [];
    if (statSync(path).isDirectory()) return walk(path, pattern, skip);
    return pattern.test(name) ? [path] : [];
  });
}

/** GitHub's heading slug: lowercase, drop everything but letters, marks, numbers, `_`, `-` and spaces; spaces → `-`. */
export function slug(heading) {
  return heading
    .replace(/<[^>]+>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Markdown without fenced code blocks and (unless `keepInline`) inline code: links there are examples, not links; a
 * heading's inline code is part of its text (and slug), so anchors are read with `keepInline`.
 */
function stripCode(markdown, keepInline = false) {
  const out = [];
  let fence = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence === null && marker) fence = marker[0];
    else if (fence !== null && marker && marker[0] === fence) fence = null;
    else if (fence === null) {
      out.push(keepInline ? line : line.replace(/(`+)[^`]*?\1/g, ''));
      continue;
    }
    out.push('');
  }
  return out.join('\n');
}

function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const text = readFileSync(file, 'utf8');
  const anchors = new Set();
  for (const m of text.matchAll(/\b(?:id|name)=["']([^"']+)["']/g)) anchors.add(m[1]);
  if (file.endsWith('.md')) {
    const counts = new Map();
    for (const m of stripCode(text, true).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
      const base = slug(m[1]);
      const n = counts.get(base) ?? 0;
      counts.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
  }
  anchorCache.set(file, anchors);
  return anchors;
}

let skippedApi = 0;
function checkTarget(from, target, where) {
  if (/^(https?:|mailto:|data:|javascript:)/i.test(target) || target.startsWith('//')) return;
  const [pathPart, fragment] = target.split('#', 2);
  let file = from;
  if (pathPart !== '') {
    const decoded = decodeURIComponent(pathPart.split('?')[0]);
    file = decoded.startsWith('/') ? join(root, decoded) : resolve(dirname(from), decoded);
    // docs/api is generated (pnpm docs:api), not committed: links into it are checked once it exists.
    if (!existsSync(apiDir) && (file === apiDir || file.startsWith(`${apiDir}/`))) return void (skippedApi += 1);
    if (!existsSync(file)) return problems.push(`${where}: broken link ${target} (no ${relative(root, file)})`);
    if (statSync(file).isDirectory()) {
      const index = ['README.md', 'index.html'].map((f) => join(file, f)).find((f) => existsSync(f));
      if (!index) return fragment ? problems.push(`${where}: ${target} is a directory without README.md or index.html`) : undefined;
      file = index;
    }
  }
  if (fragment && /\.(md|html?)$/.test(file) && !anchorsOf(file).has(decodeURIComponent(fragment))) {
    problems.push(`${where}: broken anchor ${target} (no heading or id "${fragment}" in ${relative(root, file)})`);
  }
}

const apiDir = join(root, 'docs', 'api');
const markdown = [join(root, 'README.md'), ...walk(join(root, 'docs'), /\.md$/, (p) => p === apiDir), ...walk(join(root, 'packages'), /^README\.md$/), ...walk(join(root, 'examples'), /^README\.md$/)].filter((f) => existsSync(f));
let links = 0;
for (const file of markdown) {
  const text = stripCode(readFileSync(file, 'utf8'));
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const where = `${relative(root, file)}:${i + 1}`;
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links += 1;
      checkTarget(file, m[1], where);
    }
    for (const m of line.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/g)) {
      links += 1;
      checkTarget(file, m[1], where);
    }
    for (const m of line.matchAll(/\b(?:href|src)=["']([^"']+)["']/g)) {
      links += 1;
      checkTarget(file, m[1], where);
    }
  });
}
let apiFiles = 0;
if (existsSync(apiDir)) {
  for (const file of walk(apiDir, /\.html$/)) {
    apiFiles += 1;
    const text = readFileSync(file, 'utf8');
    for (const m of new Set([...text.matchAll(/\bhref="([^"]+)"/g)].map((x) => x[1]))) {
      links += 1;
      checkTarget(file, m.replace(/&amp;/g, '&'), relative(root, file));
    }
  }
}

if (problems.length > 0) {
  console.error(`Broken links (${problems.length}):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `links ok: ${links} links in ${markdown.length} Markdown files${apiFiles > 0 ? ` and ${apiFiles} docs/api HTML files` : ` (docs/api not generated, ${skippedApi} link(s) into it skipped: run pnpm docs:api to check them)`} (${elapsed(started)} s)`,
);
