import { describe, expect, it } from 'vitest';
import { traceProblemKind } from './fasttrack.js';

describe('traceProblemKind', () => {
  it('sorts the codes the trace emits into note / unjudged / failure (hand-checked)', () => {
    expect(traceProblemKind({ code: 'no-cluster-matched' })).toBe('note');
    expect(traceProblemKind({ code: 'unjudged' })).toBe('unjudged');
    expect(traceProblemKind({ code: 'unlabelled-leaves' })).toBe('failure');
    expect(traceProblemKind({ code: 'empty-query' })).toBe('failure');
    // An unknown code is never taken as harmless.
    expect(traceProblemKind({ code: 'something-new' })).toBe('failure');
  });
});
