import { describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { stemPorterNltk } from '../src/index.js';
import { readGoldenJson } from './golden.js';
describeWithData('golden', 'Porter golden', () => {
  const synonyms = readGoldenJson<{ tokens: Record<string, { stem: string }> }>('meteor/meteor_wordnet_synonyms.json');

  describe('stemPorterNltk vs NLTK 3.8 PorterStemmer (NLTK_EXTENSIONS)', () => {
    it("gives NLTK's stem for all 915 METEOR golden tokens", () => {
      const tokens = Object.entries(synonyms.tokens);
      expect(tokens.length).toBe(915);
      const mismatches = tokens.filter(([token, { stem }]) => stemPorterNltk(token) !== stem).map(([token, { stem }]) => `${token}: ours ${stemPorterNltk(token)}, NLTK ${stem}`);
      expect(mismatches).toEqual([]);
    });

    it('handles NLTK-specific rules: irregular forms, ies/ied of length 4, y → i after a consonant, logi', () => {
      expect(['dying', 'lying', 'skies', 'news', 'innings'].map(stemPorterNltk)).toEqual(['die', 'lie', 'sky', 'news', 'inning']);
      expect(['dies', 'flies', 'died', 'spied'].map(stemPorterNltk)).toEqual(['die', 'fli', 'die', 'spi']);
      expect(['happy', 'enjoy', 'sky', 'by'].map(stemPorterNltk)).toEqual(['happi', 'enjoy', 'sky', 'by']);
      expect(['geology', 'caresses', 'ponies', 'generalization', 'relational'].map(stemPorterNltk)).toEqual(['geolog', 'caress', 'poni', 'gener', 'relat']);
    });
  });
});
