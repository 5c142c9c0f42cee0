// The tarball data allow-list of tooling/check-packages.mjs, on real `npm pack` tarballs.
//   node --test tooling/test/
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { packedPaths, sourceDataPaths, tarballPaths, unlistedDataFiles } from '../lib/packed-files.mjs';
import { root } from '../lib/workspace.mjs';

const work = mkdtempSync(join(tmpdir(), 'check-packages-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Writes a package (name, files, { path: text }) and packs it with npm; returns the directory and the tarball path. */
function pack(dirName, name, files, contents) {
  const dir = join(work, dirName);
  for (const [path, text] of Object.entries({ 'package.json': JSON.stringify({ name, version: '1.0.0', files }), ...contents })) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const out = join(work, `${dirName}-out`);
  mkdirSync(out, { recursive: true });
  const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { cwd: dir, encoding: 'utf8' }));
  return { dir, tarball: join(out, filename) };
}
const check = (...tarballs) => spawnSync(process.execPath, [join(root, 'tooling', 'check-packages.mjs'), '--tarball', ...tarballs], { encoding: 'utf8' });

const withData = pack('with-data', '@factkit/fake', ['dist', 'data'], {
  'dist/index.js': 'export const x = 1;\n',
  'dist/index.d.ts': 'export declare const x: number;\n',
  'README.md': '# fake\n',
  'data/pairs.jsonl': '{"premise":"a","hypothesis":"b"}\n',
  'data/qrels.tsv': 'q1\td1\t1\n',
  'data/corpus.json': '[]\n',
  'data/vectors.txt.gz': 'not really gzip',
  'data/notes.txt': 'words\n',
  'src/weights.json': '{}\n',
});
const codeOnly = pack('code-only', '@factkit/clean', ['dist'], { 'dist/index.js': 'export const y = 2;\n', 'dist/index.js.map': '{}', 'README.md': '# clean\n', LICENSE: 'MIT License\n' });

describe('check-packages --tarball', () => {
  it('fails a tarball with unlisted .jsonl / .tsv / .json / .gz / .txt data files, naming each and the allow-list', () => {
    const result = check(withData.tarball);
    assert.equal(result.status, 1);
    for (const path of ['data/pairs.jsonl', 'data/qrels.tsv', 'data/corpus.json', 'data/vectors.txt.gz', 'data/notes.txt']) {
      assert.match(result.stderr, new RegExp(`\\(@factkit/fake\\): ships data file "${path.replace('.', '\\.')}" that is not on the allow-list of project-made data`));
    }
    assert.match(result.stderr, /projectData\["@factkit\/fake"\] in tooling\/release\.config\.json/);
    assert.match(result.stderr, /Tarball data problems \(5\)/); // package.json, README and code are not data
  });

  it('passes a tarball of code, types, source maps and docs', () => {
    const result = check(codeOnly.tarball);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /tarballs ok: 1 checked/);
  });
});

describe('packed-files', () => {
  it('lists from "files" exactly what npm packs', () => {
    assert.deepEqual(packedPaths(withData.dir, ['dist', 'data']).paths, tarballPaths(withData.tarball));
    assert.deepEqual(packedPaths(codeOnly.dir, ['dist']).paths, tarballPaths(codeOnly.tarball));
    assert.deepEqual(packedPaths(codeOnly.dir, ['dist/*.js']).unsupported, ['dist/*.js']);
  });

  it('finds data under src/ (bundled into dist) and lets allow-listed paths through', () => {
    assert.deepEqual(sourceDataPaths(withData.dir), ['src/weights.json']);
    assert.deepEqual(unlistedDataFiles('@factkit/fake', ['src/weights.json', 'dist/index.js', 'package.json'], { 'src/weights.json': 'fitted by the project' }), []);
    assert.equal(unlistedDataFiles('@factkit/fake', ['src/weights.json'], {}).length, 1);
  });
});
