import { describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { stemPorter } from '../src/index.js';
import { readGoldenJson } from './golden.js';
describeWithData('golden', 'Porter golden', () => {
  const synonyms = readGoldenJson<{ tokens: Record<string, { stem: string }> }>('meteor/meteor_wordnet_synonyms.json');

  describe('stemPorter vs NLTK 3.8 PorterStemmer (NLTK_EXTENSIONS)', () => {
    it('gives NLTK\'s stem for all 915 METEOR golden tokens', () => {
      const tokens = Object.entries(synonyms.tokens);
      expect(tokens.length).toBe(915);
      const mismatches = tokens.filter(([token, { stem }]) => stemPorter(token) !== stem).map(([token, { stem }]) => `${token}: ours ${stemPorter(token)}, NLTK ${stem}`);
      expect(mismatches).toEqual([]);
    });

    it('handles NLTK-specific rules: irregular forms, ies/ied of length 4, y → i after a consonant, logi', () => {
      expect(['dying', 'lying', 'skies', 'news', 'innings'].map(stemPorter)).toEqual(['die', 'lie', 'sky', 'news', 'inning']);
      expect(['dies', 'flies', 'died', 'spied'].map(stemPorter)).toEqual(['die', 'fli', 'die', 'spi']);
      expect(['happy', 'enjoy', 'sky', 'by'].map(stemPorter)).toEqual(['happi', 'enjoy', 'sky', 'by']);
      expect(['geology', 'caresses', 'ponies', 'generalization', 'relational'].map(stemPorter)).toEqual(['geolog', 'caress', 'poni', 'gener', 'relat']);
    });
  });
});
