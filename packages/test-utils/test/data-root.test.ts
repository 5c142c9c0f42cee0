import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataset, findDataRoot, findRepositoryRoot, isCi, missingDatasetMessage, requireDataset } from '../src/data-root.js';

// A fake layout: <base>/checkout (pnpm-workspace.yaml) with packages/x inside, and <base>/shared/data/scifact beside it.
const base = mkdtempSync(join(tmpdir(), 'factkit-data-root-'));
const checkout = join(base, 'checkout');
const inner = join(checkout, 'packages', 'x', 'test');
mkdirSync(inner, { recursive: true });
writeFileSync(join(checkout, 'pnpm-workspace.yaml'), 'packages: []\n');
const lonelyBase = mkdtempSync(join(tmpdir(), 'factkit-no-data-root-')); // no shared/ beside this checkout
const lonely = join(lonelyBase, 'lonely');
mkdirSync(join(lonely, 'sub'), { recursive: true });
writeFileSync(join(lonely, 'pnpm-workspace.yaml'), 'packages: []\n');
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync(lonelyBase, { recursive: true, force: true });
});
const noEnv = {};

describe('findDataRoot', () => {
  it('finds the repository root by walking up to pnpm-workspace.yaml', () => {
    expect(findRepositoryRoot(inner)).toBe(checkout);
    expect(findRepositoryRoot(new URL(`file://${inner}/file.ts`))).toBe(checkout);
  });

  it('is undefined when ../shared/data does not exist beside the checkout and FACTKIT_DATA is unset', () => {
    expect(findDataRoot({ from: join(lonely, 'sub'), env: noEnv })).toBeUndefined();
    expect(dataset('scifact', { from: join(lonely, 'sub'), env: noEnv })).toBeUndefined();
  });

  it('uses ../shared/data beside the checkout when it exists', () => {
    mkdirSync(join(base, 'shared', 'data', 'scifact'), { recursive: true });
    expect(findDataRoot({ from: inner, env: noEnv })).toBe(join(base, 'shared', 'data'));
    expect(dataset('scifact', { from: inner, env: noEnv })).toBe(join(base, 'shared', 'data', 'scifact'));
    expect(dataset('fever-lite', { from: inner, env: noEnv })).toBeUndefined();
  });

  it('prefers FACTKIT_DATA, even over an existing ../shared/data', () => {
    const other = join(base, 'elsewhere');
    mkdirSync(join(other, 'golden'), { recursive: true });
    expect(findDataRoot({ from: inner, env: { FACTKIT_DATA: other } })).toBe(other);
    expect(dataset('golden', { from: inner, env: { FACTKIT_DATA: other } })).toBe(join(other, 'golden'));
    expect(dataset('scifact', { from: inner, env: { FACTKIT_DATA: other } })).toBeUndefined();
    expect(findDataRoot({ from: inner, env: { FACTKIT_DATA: '  ' } })).toBe(join(base, 'shared', 'data'));
  });
});

describe('missing data', () => {
  it('says in one line which dataset is needed, where it is published and how to pass it', () => {
    const message = missingDatasetMessage('scifact', { from: join(lonely, 'sub'), env: noEnv, flag: '--beir <folder>' });
    expect(message).not.toContain('\n');
    expect(message).toContain('BEIR SciFact');
    expect(message).toContain('https://github.com/beir-cellar/beir');
    expect(message).toContain('--beir <folder>');
    expect(message).toContain('FACTKIT_DATA');
    expect(() => requireDataset('scifact', { from: join(lonely, 'sub'), env: noEnv })).toThrow(/needs BEIR SciFact/);
  });

  it('rejects an unknown dataset name with a typed error naming the argument', () => {
    expect(() => dataset('imagenet' as 'scifact')).toThrow(/argument "name" must be one of scifact/);
  });

  it('reads CI=true and CI=1 as CI, anything else not', () => {
    expect(isCi({ CI: 'true' })).toBe(true);
    expect(isCi({ CI: '1' })).toBe(true);
    expect(isCi({ CI: 'false' })).toBe(false);
    expect(isCi({})).toBe(false);
  });
});
