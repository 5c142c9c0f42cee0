import { describeWithData } from '@factkit/test-utils';
import { buildNliPairs, NLI_PAIR_DATASETS, normalizeClaim, requireNliPairDataRoot } from '@factkit/test-utils/nli-pairs';
import { expect, it } from 'vitest';
import type { FeverClaim } from '../src/fever-compose.js';
import { buildFeverSplits } from '../src/fever-splits.js';
import { readJsonl } from '../src/shared.js';

describeWithData(NLI_PAIR_DATASETS, 'FEVER-lite splits of fever-study', () => {
  it('validation claims are in no NLI training or held-out pair, share no evidence sentence with a test claim, and the test split is fever-eval held-out composition', () => {
    const splits = buildFeverSplits();
    const claims = new Map([...readJsonl<FeverClaim>('fever-lite', 'validation.jsonl'), ...readJsonl<FeverClaim>('fever-lite', 'test.jsonl')].map((claim) => [claim.id, claim]));
    const pairs = buildNliPairs(requireNliPairDataRoot()).filter((pair) => pair.source.startsWith('fever:'));
    const pairClaims = new Set(pairs.map((pair) => normalizeClaim(pair.hypothesis)));
    const heldOut = new Set(pairs.filter((pair) => pair.split === 'test').map((pair) => pair.hypothesis));
    const testClaims = splits.test.responses.flatMap((r) => r.claimIds).map((id) => claims.get(id)!);
    const validationClaims = splits.validation.responses.flatMap((r) => r.claimIds).map((id) => claims.get(id)!);
    expect(testClaims.every((claim) => heldOut.has(claim.claim))).toBe(true);
    expect(validationClaims.some((claim) => pairClaims.has(normalizeClaim(claim.claim)))).toBe(false);
    const testEvidence = new Set(testClaims.flatMap((claim) => claim.evidence));
    expect(validationClaims.some((claim) => claim.evidence.some((sentence) => testEvidence.has(sentence)))).toBe(false);
    expect(splits.test.responses).toHaveLength(259); // the "300 held-out responses": 300 asked, the pool gives 259
    expect(splits.validation.responses).toHaveLength(400);
    expect(buildFeverSplits().validation.responses).toEqual(splits.validation.responses); // seeded
  });
});
