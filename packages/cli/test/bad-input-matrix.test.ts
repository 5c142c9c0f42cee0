import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES } from '../src/read-input.js';
import { runCli } from '../src/run-cli.js';

// The bad-input matrix (issue 21): every subcommand's input × {missing, empty, malformed line, binary, byte-order mark,
// huge (above the documented 500 MiB limit of a file read whole: a sparse file made at test time, no disk used),
// duplicate ids, output path = input}, run in-process through runCli, each with the expected exit code and message
// shape. docs/bad-input-matrix.md is generated from it (FACTKIT_UPDATE_MATRIX=1) and checked against it otherwise.

const CONDITIONS = ['missing', 'empty', 'malformed line', 'binary', 'BOM', 'huge', 'duplicate ids', 'output = input'] as const;
type Condition = (typeof CONDITIONS)[number];

interface Expectation {
  readonly code: number;
  /** Matched against stderr (multiline). */
  readonly message: RegExp;
  /** More checks on stdout (e.g. the first record kept under a BOM). */
  readonly stdout?: (stdout: string) => boolean;
}
/** An expectation, or why the condition does not apply to this input. */
type Cell = Expectation | { readonly na: string };

interface Row {
  readonly name: string;
  /** The file (or folder) under test for a condition; `undefined` path = the row's default layout. */
  readonly make: (condition: Condition, path: string) => string;
  readonly args: (path: string, condition: Condition) => string[];
  readonly cells: Readonly<Record<Condition, Cell>>;
}

const dir = mkdtempSync(join(tmpdir(), 'factkit-matrix-'));
const out = (name: string) => join(dir, 'out', name);
const env = { XDG_CACHE_HOME: join(dir, 'cache') };
const CORPUS = [
  { id: 'aq-0', text: 'The Acqua Felice aqueduct was completed in 1586.' },
  { id: 'aq-1', text: 'The aqueduct was commissioned by Pope Sixtus V.' },
  { id: 'fr-0', text: 'Paris is the capital of France.' },
  { id: 'fr-1', text: 'The Seine flows through Paris.' },
];
const jsonl = (rows: readonly object[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

/** Writes the content a condition calls for, from the row's good and duplicate contents. */
function fileFor(condition: Condition, path: string, good: string, duplicate?: string): string {
  if (condition === 'missing') return path;
  if (condition === 'huge') {
    // A sparse file just above the limit: the size is checked before any byte is read.
    const descriptor = openSync(path, 'w');
    ftruncateSync(descriptor, MAX_INPUT_BYTES + 1);
    closeSync(descriptor);
    return path;
  }
  const content: Record<Exclude<Condition, 'missing' | 'huge'>, string | Uint8Array> = {
    empty: '',
    'malformed line': `${good}{"broken":\n`,
    binary: Uint8Array.from([...Buffer.from(good), 0x00, 0xff]),
    BOM: `\uFEFF${good}`,
    'duplicate ids': duplicate ?? good,
    'output = input': good,
  };
  writeFileSync(path, content[condition]);
  return path;
}

// Expectations shared by the JSONL inputs (one reader, one policy: docs/cli.md "Input files").
const jsonlCells = (command: string, flag: string, extra: { bom: Expectation['stdout']; duplicate: Cell; same: Cell }): Record<Condition, Cell> => {
  const prefix = `^factkit ${command}: argument "${flag}" `;
  return {
    missing: { code: 2, message: new RegExp(`${prefix}cannot read ".*": ENOENT$`, 'm') },
    empty: { code: 2, message: new RegExp(`${prefix}".*" is empty$`, 'm') },
    'malformed line': { code: 3, message: /^warning: .*\.jsonl:\d+: not valid JSON$/m },
    binary: { code: 2, message: new RegExp(`${prefix}".*" is not a text file \\(NUL byte at offset \\d+\\)$`, 'm') },
    BOM: { code: 0, message: /^$/, ...(extra.bom ? { stdout: extra.bom } : {}) },
    huge: { code: 2, message: new RegExp(`${prefix}".*" is larger than the 500 MiB limit`, 'm') },
    'duplicate ids': extra.duplicate,
    'output = input': extra.same,
  };
};
const sameFile = (command: string, flag: string, inputFlag: string): Expectation => ({ code: 2, message: new RegExp(`^factkit ${command}: argument "${flag}" is the input file of ${inputFlag}`, 'm') });
const repeated = (what: string): Expectation => ({ code: 3, message: new RegExp(`^warning: .*:2: repeats ${what} id "[^"]+" \\(first on line 1\\)$`, 'm') });

const jsonlRow = (name: string, good: string, duplicate: string | undefined, args: Row['args'], extra: Parameters<typeof jsonlCells>[2]): Row => {
  const [command, flag] = name.split(' ') as [string, string];
  return { name, make: (condition, path) => fileFor(condition, `${path}.jsonl`, good, duplicate), args, cells: jsonlCells(command, flag, extra) };
};

/** A BEIR folder whose corpus.jsonl is the file under test (a missing folder for `missing`). */
function beirFolder(condition: Condition, path: string): string {
  if (condition === 'missing') return path;
  mkdirSync(join(path, 'qrels'), { recursive: true });
  writeFileSync(join(path, 'queries.jsonl'), jsonl([{ _id: 'q1', text: 'capital of France' }]));
  writeFileSync(join(path, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\tfr-0\t1\n');
  const good = jsonl(CORPUS.map(({ id, text }) => ({ _id: id, title: '', text })));
  fileFor(
    condition,
    join(path, 'corpus.jsonl'),
    good,
    jsonl([
      { _id: 'fr-0', text: 'Paris is the capital of France.' },
      { _id: 'fr-0', text: 'again' },
    ]),
  );
  return path;
}
const beirCells = (command: string, same: Cell, bom: Expectation['stdout']): Record<Condition, Cell> => ({
  missing: { code: 2, message: new RegExp(`^factkit ${command}: .*(names no folder|is not a folder)`, 'm') },
  empty: { code: 2, message: new RegExp(`^factkit ${command}: .*(empty corpus|has no document|no claim)`, 'm') },
  'malformed line': { code: 2, message: new RegExp(`^factkit ${command}: .*corpus\\.jsonl:5: is not valid JSON$`, 'm') },
  // Streamed: the NUL-holding line is a corrupt record (line 5, after the four good ones).
  binary: { code: 2, message: new RegExp(`^factkit ${command}: .*corpus\\.jsonl:5: is not valid JSON$`, 'm') },
  BOM: { code: 0, message: /^$/, ...(bom ? { stdout: bom } : {}) },
  huge: { na: 'streamed line by line (no whole-file limit)' },
  'duplicate ids': { code: 2, message: new RegExp(`^factkit ${command}: .*corpus\\.jsonl: has duplicate document id "fr-0"$`, 'm') },
  'output = input': same,
});

/** An index file under test (built in beforeAll) for search and expand. */
const indexCells = (command: string): Record<Condition, Cell> => ({
  missing: { code: 2, message: new RegExp(`^factkit ${command}: .*(cannot be read|cannot read|ENOENT)`, 'm') },
  empty: { code: 2, message: /^factkit \w+: .*(not a factkit BM25 index|truncated|empty|bad magic)/m },
  'malformed line': { code: 2, message: /^factkit \w+: .*(truncated|damaged|checksum|ends)/m },
  binary: { code: 2, message: /^factkit \w+: .*(not a factkit BM25 index|bad magic)/m },
  BOM: { na: 'a binary index file, not text' },
  huge: { code: 2, message: /^factkit \w+: .*(not a factkit BM25 index|bad magic)/m },
  'duplicate ids': { na: 'an index holds each id once (checked when it is built)' },
  'output = input': { na: 'writes no file' },
});
function indexFile(condition: Condition, path: string): string {
  const file = `${path}.bm25`;
  const bytes = readFileSync(join(dir, 'corpus.bm25'));
  if (condition === 'missing') return file;
  if (condition === 'empty') writeFileSync(file, '');
  else if (condition === 'malformed line') writeFileSync(file, bytes.subarray(0, bytes.length - 20));
  else if (condition === 'binary')
    writeFileSync(
      file,
      Uint8Array.from({ length: 64 }, (_, position) => (position * 37) % 256),
    );
  else if (condition === 'huge') fileFor('huge', file, '');
  return file;
}

const corpusJsonl = jsonl(CORPUS);
const duplicateCorpus = jsonl([CORPUS[0]!, { ...CORPUS[1]!, id: CORPUS[0]!.id }]);
const ROWS: Row[] = [
  jsonlRow(
    'check --input',
    jsonl([{ id: 'q', question: 'Who built it?', answer: 'Pope Sixtus V built the aqueduct.' }]),
    jsonl([
      { id: 'q', answer: 'Paris is in France.' },
      { id: 'q', answer: 'Rome is in Italy.' },
    ]),
    (path) => ['check', '--input', path, '--corpus', join(dir, 'corpus.jsonl'), '--no-html', '--json', '--out', path.endsWith('same.jsonl') ? path : out('check.json')],
    {
      bom: (stdout) => (json(stdout)['results'] as unknown[]).length === 1,
      duplicate: repeated('answer'),
      same: sameFile('check', '--out', '--input'),
    },
  ),
  jsonlRow('check --corpus', corpusJsonl, duplicateCorpus, (path) => ['check', '--answer', 'Paris is the capital of France.', '--corpus', path, '--no-html', '--json', '--out', path.endsWith('same.jsonl') ? path : out('check2.json')], {
    bom: (stdout) => json(stdout)['corpusSize'] === 4,
    duplicate: repeated('document'),
    same: sameFile('check', '--out', '--corpus'),
  }),
  jsonlRow('index --jsonl', corpusJsonl, duplicateCorpus, (path) => ['index', '--jsonl', path, '--out', path.endsWith('same.jsonl') ? path : out('i.bm25'), '--json'], {
    bom: (stdout) => json(stdout)['documents'] === 4,
    duplicate: repeated('document'),
    same: sameFile('index', '--out', '--jsonl'),
  }),
  jsonlRow(
    'expand --input',
    jsonl([{ id: 'q1', text: 'aqueduct pope' }]),
    jsonl([
      { id: 'q1', text: 'aqueduct' },
      { id: 'q1', text: 'pope' },
    ]),
    (path) => ['expand', '--input', path, '--method', 'rm3', '--index', join(dir, 'corpus.bm25'), '--json'],
    {
      bom: (stdout) => (json(stdout)['expansions'] as unknown[]).length === 1,
      duplicate: repeated('query'),
      same: { na: 'writes no file' },
    },
  ),
  jsonlRow('enrich --input', corpusJsonl, duplicateCorpus, (path) => ['enrich', '--input', path, '--out', path.endsWith('same.jsonl') ? path : out('chunks.jsonl'), '--json'], {
    bom: (stdout) => json(stdout)['documents'] === 4,
    duplicate: repeated('document'),
    same: sameFile('enrich', '--out', '--input'),
  }),
  jsonlRow(
    'enrich --queries',
    jsonl([{ query: 'Who commissioned the aqueduct?', documentId: 'aq-1' }]),
    undefined,
    (path) => ['enrich', '--input', join(dir, 'corpus.jsonl'), '--queries', path, '--out', out('chunks2.jsonl'), '--md', path.endsWith('same.jsonl') ? path : out('r.md'), '--json'],
    {
      bom: (stdout) => json(stdout)['queriesLeftOut'] === 0 && json(stdout)['topK'] !== undefined,
      duplicate: { na: 'queries have no id (a repeated question is allowed)' },
      same: sameFile('enrich', '--md', '--queries'),
    },
  ),
  jsonlRow(
    'trace --corpus',
    corpusJsonl,
    duplicateCorpus,
    (path) => ['trace', '--corpus', path, '--query', 'The aqueduct was built in 1586.', '--k', '2', '--leaf-size', '2', '--json', '--out', path.endsWith('same.jsonl') ? path : out('t.json')],
    {
      bom: (stdout) => json(stdout)['corpus'] === 4,
      duplicate: repeated('document'),
      same: sameFile('trace', '--out', '--corpus'),
    },
  ),
  jsonlRow(
    'trace --queries',
    `The aqueduct was built in 1586.\n${jsonl([{ query: 'Paris is in France.', supporting: ['fr-0'] }])}`,
    undefined,
    (path) => ['trace', '--corpus', join(dir, 'corpus.jsonl'), '--queries', path, '--k', '2', '--leaf-size', '2', '--json', '--md', path.endsWith('same.jsonl') ? path : out('t.md')],
    {
      bom: (stdout) => (json(stdout)['results'] as unknown[]).length === 2,
      duplicate: { na: 'statements have no id' },
      same: sameFile('trace', '--md', '--queries'),
    },
  ),
  {
    name: 'index --folder',
    make: (condition, path) => {
      if (condition === 'missing') return path;
      mkdirSync(path);
      if (condition === 'empty' || condition === 'output = input') {
        if (condition === 'output = input') writeFileSync(join(path, 'a.txt'), 'Paris is the capital of France.');
        return path;
      }
      if (condition === 'huge') fileFor('huge', join(path, 'a.txt'), '');
      else if (condition === 'binary') writeFileSync(join(path, 'a.txt'), Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00]));
      else writeFileSync(join(path, 'a.txt'), `${condition === 'BOM' ? '\uFEFF' : ''}Paris is the capital of France.`);
      return path;
    },
    args: (path, condition) => ['index', '--folder', path, '--out', condition === 'output = input' ? path : out('f.bm25'), '--json'],
    cells: {
      missing: { code: 2, message: /^factkit index: argument "--folder" is not a folder: ".*"$/m },
      empty: { code: 2, message: /^factkit index: argument "--folder" no \.txt or \.md file below ".*"$/m },
      'malformed line': { na: 'plain text files have no records' },
      binary: { code: 2, message: /^factkit index: argument "--folder" ".*a\.txt" is not a text file \(NUL byte at offset 4\)$/m },
      BOM: { code: 0, message: /^$/, stdout: (stdout) => json(stdout)['documents'] === 1 },
      huge: { code: 2, message: /^factkit index: argument "--folder" ".*a\.txt" is larger than the 500 MiB limit/m },
      'duplicate ids': { na: 'ids are relative paths (unique)' },
      'output = input': sameFile('index', '--out', '--folder'),
    },
  },
  {
    name: 'index --beir',
    make: beirFolder,
    args: (path, condition) => ['index', '--beir', path, '--out', condition === 'output = input' ? join(path, 'corpus.jsonl') : out('b.bm25'), '--json'],
    cells: beirCells('index', sameFile('index', '--out', '--beir'), (stdout) => json(stdout)['documents'] === 4),
  },
  {
    name: 'eval --beir',
    make: beirFolder,
    args: (path, condition) => ['eval', '--beir', path, '--json', ...(condition === 'output = input' ? ['--run', join(path, 'corpus.jsonl')] : [])],
    cells: beirCells('eval', sameFile('eval', '--run', '--beir'), (stdout) => (json(stdout)['aggregate'] as Record<string, number>)['ndcg_cut_10'] === 1),
  },
  {
    name: 'audit --beir',
    make: beirFolder,
    args: (path, condition) => ['audit', '--beir', path, '--unit', 'abstract', '--json', ...(condition === 'output = input' ? ['--out', join(path, 'queries.jsonl')] : [])],
    cells: beirCells('audit', sameFile('audit', '--out', '--beir'), (stdout) => json(stdout)['claims'] === 1),
  },
  {
    name: 'eval --runs',
    make: (condition, path) => fileFor(condition, `${path}.trec`, 'q1 Q0 fr-0 1 2.5 r\nq1 Q0 aq-0 2 1.5 r\n', 'q1 Q0 fr-0 1 2.5 r\nq1 Q0 fr-0 2 1.5 r\n'),
    args: (path, condition) => ['eval', '--qrels', join(dir, 'qrels.txt'), '--runs', path, '--json', ...(condition === 'output = input' ? ['--html', path] : [])],
    cells: {
      missing: { code: 2, message: /^factkit eval: argument "--runs" cannot read ".*": ENOENT$/m },
      empty: { code: 2, message: /^factkit eval: argument "--runs" ".*" is empty$/m },
      'malformed line': { code: 2, message: /^factkit eval: .*\.trec:3: expected 6 fields/m },
      binary: { code: 2, message: /^factkit eval: argument "--runs" ".*" is not a text file/m },
      BOM: { code: 0, message: /^$/, stdout: (stdout) => stdout.includes('"ndcg_cut_10": 1') },
      huge: { code: 2, message: /^factkit eval: argument "--runs" ".*" is larger than the 500 MiB limit/m },
      'duplicate ids': { code: 2, message: /^factkit eval: .*\.trec:2: document "fr-0" of query "q1" already listed on line 1$/m },
      'output = input': sameFile('eval', '--html', '--runs'),
    },
  },
  { name: 'search --index', make: indexFile, args: (path) => ['search', '--index', path, '--query', 'Paris'], cells: indexCells('search') },
  { name: 'expand --index', make: indexFile, args: (path) => ['expand', '--query', 'Paris', '--method', 'rm3', '--index', path], cells: indexCells('expand') },
  {
    name: 'models --dir',
    make: (condition, path) => {
      if (condition === 'missing') return path;
      mkdirSync(join(path, 'm'), { recursive: true });
      const config = '{"model_type": "bert"}';
      if (condition === 'malformed line') writeFileSync(join(path, 'm', 'config.json'), '{"model_type": ');
      else if (condition === 'binary') writeFileSync(join(path, 'm', 'config.json'), Uint8Array.from([0x7b, 0x00, 0xff]));
      else if (condition === 'BOM') writeFileSync(join(path, 'm', 'config.json'), `\uFEFF${config}`);
      return path;
    },
    args: (path) => ['models', '--dir', path, '--json'],
    cells: {
      missing: { code: 2, message: /^factkit models: argument "--dir" cannot read ".*": ENOENT$/m },
      empty: { code: 2, message: /^factkit models: argument "--dir" has no model folder/m },
      'malformed line': { code: 3, message: /^$/, stdout: (stdout) => stdout.includes('config.json is not valid JSON') },
      binary: { code: 3, message: /^$/, stdout: (stdout) => /config\.json.*(not a text file|NUL byte)/.test(stdout) },
      // Read as JSON (kind embedder, model_type bert); the folder then fails its file check (no tokenizer or onnx).
      BOM: { code: 3, message: /^$/, stdout: (stdout) => stdout.includes('"modelType": "bert"') && !stdout.includes('not valid JSON') },
      huge: { na: 'config.json is read per folder; no large input' },
      'duplicate ids': { na: 'folders are unique paths' },
      'output = input': { na: 'writes no file' },
    },
  },
];

interface Outcome {
  readonly row: string;
  readonly condition: Condition;
  readonly expected: string;
  readonly actual: string;
  readonly message: string;
  readonly ok: boolean;
}
const outcomes: Outcome[] = [];

beforeAll(async () => {
  mkdirSync(join(dir, 'out'), { recursive: true });
  writeFileSync(join(dir, 'corpus.jsonl'), corpusJsonl);
  writeFileSync(join(dir, 'qrels.txt'), 'q1 0 fr-0 1\n');
  expect(await runCli(['index', '--jsonl', join(dir, 'corpus.jsonl'), '--out', join(dir, 'corpus.bm25'), '--no-config'], { stdout: () => {}, stderr: () => {}, progress: () => {}, env, cwd: dir })).toBe(0);
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const slug = (text: string) => text.replace(/\W+/g, '-').replace(/^-|-$/g, '');

describe.each(ROWS)('$name', (row) => {
  it.each(CONDITIONS)(
    '%s',
    async (condition) => {
      const cell = row.cells[condition];
      if ('na' in cell) {
        outcomes.push({ row: row.name, condition, expected: 'n/a', actual: 'n/a', message: cell.na, ok: true });
        return;
      }
      const path = row.make(condition, join(dir, `${slug(row.name)}-${condition === 'output = input' ? 'same' : slug(condition)}`));
      let stdout = '';
      let stderr = '';
      const code = await runCli([...row.args(path, condition), '--no-config'], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), progress: () => {}, env, cwd: dir });
      const ok = code === cell.code && cell.message.test(stderr) && (cell.stdout === undefined || cell.stdout(stdout));
      const firstLine = (stderr.split('\n').find((line) => line.startsWith('factkit') || line.startsWith('warning')) ?? (cell.stdout ? '(stdout checked)' : '')).replaceAll(dir, '<tmp>');
      outcomes.push({ row: row.name, condition, expected: String(cell.code), actual: String(code), message: firstLine.length > 120 ? `${firstLine.slice(0, 117)}…` : firstLine, ok });
      expect({ code, stderr: stderr.replaceAll(dir, '<tmp>') }).toMatchObject({ code: cell.code, stderr: expect.stringMatching(cell.message) });
      if (cell.stdout) expect(cell.stdout(stdout), stdout.slice(0, 500)).toBe(true);
    },
    60_000,
  );
});

describe('docs/bad-input-matrix.md', () => {
  it('is the table of these cases', () => {
    const order = (outcome: Outcome) => ROWS.findIndex((row) => row.name === outcome.row) * 10 + CONDITIONS.indexOf(outcome.condition);
    const sorted = [...outcomes].sort((a, b) => order(a) - order(b));
    const applicable = sorted.filter((outcome) => outcome.expected !== 'n/a');
    const behaving = applicable.filter((outcome) => outcome.ok).length;
    const escape = (text: string) => text.replaceAll('|', '\\|');
    const table = [
      '# Bad-input matrix of the `factkit` CLI',
      '',
      'Generated by `packages/cli/test/bad-input-matrix.test.ts` (`FACTKIT_UPDATE_MATRIX=1 npx vitest run test/bad-input-matrix.test.ts` in',
      'packages/cli rewrites it; the test fails when this file and the cases disagree). Every subcommand input × missing,',
      'empty, malformed line, binary, UTF-8 byte-order mark, huge (above the 500 MiB limit of a file read whole; a sparse',
      'file made at test time), duplicate ids, output path = input. Exit codes: 0 done, 2 bad input, 3 partial (dropped',
      'lines named `file:line`). `<tmp>` is the test folder.',
      '',
      `**${behaving} of ${applicable.length} applicable cases behave** (${sorted.length - applicable.length} do not apply).`,
      '',
      '| input | case | expected exit | exit | first line of stderr (or what was checked) |',
      '|---|---|---:|---:|---|',
      ...sorted.map(
        (outcome) => `| \`${outcome.row}\` | ${outcome.condition} | ${outcome.expected} | ${outcome.actual}${outcome.ok ? '' : ' ✗'} | ${outcome.expected === 'n/a' ? `n/a: ${escape(outcome.message)}` : `\`${escape(outcome.message)}\``} |`,
      ),
      '',
    ].join('\n');
    const path = fileURLToPath(new URL('../../../docs/bad-input-matrix.md', import.meta.url));
    if (process.env['FACTKIT_UPDATE_MATRIX'] === '1') writeFileSync(path, table);
    expect(sorted).toHaveLength(ROWS.length * CONDITIONS.length);
    expect(readFileSync(path, 'utf8')).toBe(table);
  });
});
