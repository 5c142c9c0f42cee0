// detectAbstention on real text from the data root: every FEVER-lite, AVeriTeC and Climate-FEVER claim is an assertion
// (independent truth: the datasets are claims written to be checked), so none may read as an abstention.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWithData } from '@factkit/test-utils';
import { expect, it } from 'vitest';
import { detectAbstention } from '../src/detect/detect-abstention.js';

const claims = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { claim?: unknown }).claim)
    .filter((claim): claim is string => typeof claim === 'string');

describeWithData(['fever-lite', 'averitec', 'climate-fever'], 'detectAbstention on fact-checking claims', (fever, root) => {
  it('flags none of the 13,625 claims of FEVER-lite (validation + test), AVeriTeC dev and Climate-FEVER', () => {
    const all = [...claims(join(fever, 'validation.jsonl')), ...claims(join(fever, 'test.jsonl')), ...claims(join(root, 'averitec', 'dev.jsonl')), ...claims(join(root, 'climate-fever', 'climate-fever.jsonl'))];
    expect(all.length).toBe(13_625);
    expect(all.filter((claim) => detectAbstention(claim) !== undefined)).toEqual([]);
    // Hedged: an abstention phrase that goes on to assert the claim is an answer, not an abstention.
    const hedges = ["I don't know why anyone doubts it, but", "I'm not sure, but I think", 'I am not certain; still,'];
    const hedged = all.flatMap((claim, k) => (k % 10 === 0 ? [`${hedges[k % 3]} ${claim.charAt(0).toLowerCase()}${claim.slice(1)}`] : []));
    expect(hedged.filter((answer) => detectAbstention(answer) !== undefined)).toEqual([]);
    // And a bare abstention before the claim as its own sentence is still an answer with a claim.
    expect(all.filter((claim, k) => k % 10 === 0 && detectAbstention(`I don't know. ${claim}`) !== undefined)).toEqual([]);
  });
});
