#!/usr/bin/env node
// Exercises `changeset version` on a throwaway copy of the workspace (never the real tree) and checks that every
// package named in a pending .changeset/*.md got the bumped version the changesets ask for and a CHANGELOG.md entry
// (## <new version>, with each changeset's summary), that every changeset was consumed, and that no changeset names
// an unknown or private package.  node tooling/check-changesets.mjs
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elapsed, root } from './lib/workspace.mjs';

const started = process.hrtime.bigint();
const problems = [];
const BUMPS = ['patch', 'minor', 'major'];

/** Pending changesets: [{ file, releases: Map<name, bump>, summary }] (changesets' front-matter format). */
function readChangesets(dir) {
  return readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md').sort().map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
    if (!match) {
      problems.push(`.changeset/${file}: no front matter (--- "@factkit/x": patch ---)`);
      return { file, releases: new Map(), summary: '' };
    }
    const releases = new Map();
    for (const line of match[1].split(/\r?\n/).filter((l) => l.trim() !== '')) {
      const release = /^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major)\s*$/.exec(line);
      if (release) releases.set(release[1], release[2]);
      else problems.push(`.changeset/${file}: cannot read front-matter line ${JSON.stringify(line)}`);
    }
    return { file, releases, summary: match[2].trim() };
  });
}

function bump(version, type) {
  const [major, minor, patch] = version.split(/[.-]/).map(Number);
  if (type === 'major') return `${major + 1}.0.0`;
  if (type === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

// Workspace package directories from pnpm-workspace.yaml's "- dir/*" globs (the layout this repo uses).
const globs = [...readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^\s+-\s+['"]?([\w.-]+)\/\*['"]?\s*$/gm)].map((m) => m[1]);
const packageDirs = globs.flatMap((g) => (existsSync(join(root, g)) ? readdirSync(join(root, g)).map((d) => join(g, d)) : []))
  .filter((d) => existsSync(join(root, d, 'package.json')));
const manifests = new Map(packageDirs.map((d) => {
  const m = JSON.parse(readFileSync(join(root, d, 'package.json'), 'utf8'));
  return [m.name, { dir: d, manifest: m }];
}));

const changesets = readChangesets(join(root, '.changeset'));
const wanted = new Map(); // name -> highest bump
for (const cs of changesets) {
  for (const [name, type] of cs.releases) {
    const pkg = manifests.get(name);
    if (!pkg) problems.push(`.changeset/${cs.file}: names ${name}, which is not a workspace package`);
    else if (pkg.manifest.private) problems.push(`.changeset/${cs.file}: names ${name}, which is private (never published)`);
    else if (BUMPS.indexOf(type) > BUMPS.indexOf(wanted.get(name) ?? 'none')) wanted.set(name, type);
  }
  if (cs.releases.size > 0 && cs.summary === '') problems.push(`.changeset/${cs.file}: empty summary (it becomes the CHANGELOG entry)`);
}

const copy = mkdtempSync(join(tmpdir(), 'factkit-changesets-'));
try {
  for (const f of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(root, f), join(copy, f));
  cpSync(join(root, '.changeset'), join(copy, '.changeset'), { recursive: true });
  for (const d of packageDirs) {
    mkdirSync(join(copy, d), { recursive: true });
    for (const f of ['package.json', 'CHANGELOG.md']) if (existsSync(join(root, d, f))) cpSync(join(root, d, f), join(copy, d, f));
  }
  // The changelog generator (@changesets/cli/changelog) is resolved from the copy: lend it the real node_modules.
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  let output = '';
  try {
    output = execFileSync(join(root, 'node_modules', '.bin', 'changeset'), ['version'], { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
  } catch (error) {
    problems.push(`changeset version failed in the copy: ${(error.stderr || error.stdout || error.message).toString().trim().split('\n').slice(-5).join(' | ')}`);
  }
  if (output !== '' || problems.length === 0) {
    const left = readdirSync(join(copy, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    if (left.length > 0 && wanted.size > 0) problems.push(`changeset version left ${left.length} changeset(s) unconsumed: ${left.join(', ')}`);
    for (const [name, type] of wanted) {
      const { dir, manifest } = manifests.get(name);
      const after = JSON.parse(readFileSync(join(copy, dir, 'package.json'), 'utf8'));
      const expectedVersion = bump(manifest.version, type);
      if (after.version !== expectedVersion) problems.push(`${name}: version ${manifest.version} -> ${after.version} after changeset version, expected ${expectedVersion} (${type})`);
      const changelogPath = join(copy, dir, 'CHANGELOG.md');
      if (!existsSync(changelogPath)) {
        problems.push(`${name}: changeset version wrote no ${dir}/CHANGELOG.md`);
        continue;
      }
      const changelog = readFileSync(changelogPath, 'utf8');
      const section = new RegExp(`^## ${after.version.replace(/\./g, '\\.')}\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(changelog);
      if (!section) {
        problems.push(`${name}: ${dir}/CHANGELOG.md has no "## ${after.version}" section`);
        continue;
      }
      for (const cs of changesets.filter((c) => c.releases.has(name))) {
        const firstLine = cs.summary.split('\n')[0].trim();
        if (!section[1].includes(firstLine)) problems.push(`${name}: CHANGELOG ${after.version} lacks the entry of .changeset/${cs.file}`);
      }
    }
  }
} finally {
  rmSync(copy, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`Changeset problems:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(`changesets ok: ${changesets.length} pending changeset(s); changeset version on a throwaway copy bumps ${[...wanted].map(([n, t]) => `${n} (${t})`).join(', ') || 'nothing'} and writes their CHANGELOG entries (${elapsed(started)} s)`);
