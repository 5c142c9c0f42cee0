// Lists the SciFact abstracts that splitSentences splits differently from SciFact's own corpus_sentences, with each
// differing boundary: EXTRA = a boundary only splitSentences puts there, MISSING = one only SciFact puts there.
// Analysis helper, not a test: `pnpm --filter @factkit/core exec tsx test/scifact-sentences-diff.ts [scifact|default] [--quiet]`
import { splitSentences, type SentenceProfile } from '../src/text/sentences.js';
import { readSciFactJsonl } from './scifact-data.js';

const profile: SentenceProfile = process.argv[2] === 'default' ? 'default' : 'scifact';
const quiet = process.argv.includes('--quiet');
const texts = new Map((readSciFactJsonl('corpus.jsonl.gz') as { _id: string; text: string }[]).map((row) => [row._id, row.text]));
const rows = readSciFactJsonl('corpus_sentences.jsonl.gz') as { doc_id: number; abstract: string[] }[];

/** The offsets in `text` where each sentence starts (-1 for a sentence not found in order). */
function starts(text: string, sentences: readonly string[]): Set<number> {
  const found = new Set<number>();
  let from = 0;
  for (const sentence of sentences) {
    const at = text.indexOf(sentence, from);
    found.add(at);
    if (at >= 0) from = at + sentence.length;
  }
  return found;
}

const lines: string[] = [];
let identical = 0;
for (const row of rows) {
  const text = texts.get(String(row.doc_id)) ?? '';
  const ours = splitSentences(text, { profile });
  const theirs = row.abstract.map((sentence) => sentence.trim());
  if (ours.length === theirs.length && ours.every((sentence, index) => sentence === theirs[index])) {
    identical += 1;
    continue;
  }
  const ourStarts = starts(text, ours);
  const theirStarts = starts(text, theirs);
  const show = (at: number): string => `${JSON.stringify(text.slice(Math.max(0, at - 70), at))} | ${JSON.stringify(text.slice(at, at + 40))}`;
  lines.push(`doc ${row.doc_id}`);
  for (const at of ourStarts) if (!theirStarts.has(at)) lines.push(`  EXTRA   ${show(at)}`);
  for (const at of theirStarts) if (!ourStarts.has(at)) lines.push(`  MISSING ${show(at)}`);
}
if (!quiet) process.stdout.write(`${lines.join('\n')}\n`);
process.stdout.write(`profile '${profile}': ${identical}/${rows.length} identical, ${rows.length - identical} differ\n`);
