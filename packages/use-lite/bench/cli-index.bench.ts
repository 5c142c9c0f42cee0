// `factkit index --kind dense` end to end over the first N SciFact abstract sentences (the data root's scifact/), one
// or more builds of the CLI compared in rotating order; medians over repeats, ratios to the first build.
//
//   tsx bench/cli-index.bench.ts <label>=<path to factkit bin.js> [<label>=<bin.js> ...]
//   (BENCH_SENTENCES=10000 BENCH_REPEATS=1; BENCH_OUT=name writes bench/results/<name>.{json,md}, default cli-index)
//
// The corpus file is built at run time in a temporary folder (never committed). The machine is shared: `uptime` is
// recorded before and after every run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSentences, median, uptime } from './bench-utils.js';

const here = dirname(fileURLToPath(import.meta.url));
const sentenceCount = Number(process.env['BENCH_SENTENCES'] ?? 10_000);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 1);
const outName = process.env['BENCH_OUT'] ?? 'cli-index';
const builds = process.argv.slice(2).map((argument) => {
  const [label, path] = argument.split('=') as [string, string | undefined];
  if (!path) throw new Error(`expected <label>=<path to bin.js>, got "${argument}"`);
  return { label, path };
});
if (builds.length === 0) throw new Error('give at least one <label>=<path to factkit bin.js>');

const folder = mkdtempSync(join(tmpdir(), 'factkit-cli-index-'));
try {
  const texts = benchSentences(sentenceCount);
  const corpus = join(folder, 'sentences.jsonl');
  writeFileSync(corpus, `${texts.map((text, index) => JSON.stringify({ _id: `s${index}`, text })).join('\n')}\n`);
  const runs: { label: string; repeat: number; seconds: number; cpuSeconds: number | null; exit: number | null; uptimeBefore: string; uptimeAfter: string; stderr: string }[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    const order = builds.map((_, index) => builds[(index + repeat) % builds.length] as (typeof builds)[number]);
    for (const build of order) {
      const out = join(folder, `${build.label}-${repeat}.dense`);
      const uptimeBefore = uptime();
      const started = process.hrtime.bigint();
      // CPU seconds of the child (all its threads) through /usr/bin/time where it exists: the figure least moved by load.
      const command = [process.execPath, build.path, 'index', '--jsonl', corpus, '--kind', 'dense', '--out', out, '--json'];
      const timed = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', 'cpu-seconds %U %S', ...command] : command;
      const result = spawnSync(timed[0] as string, timed.slice(1), { encoding: 'utf8', maxBuffer: 1 << 26 });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = /cpu-seconds ([\d.]+) ([\d.]+)/.exec(result.stderr);
      const cpuSeconds = cpu ? Number(cpu[1]) + Number(cpu[2]) : null;
      const uptimeAfter = uptime();
      runs.push({ label: build.label, repeat, seconds, cpuSeconds, exit: result.status, uptimeBefore, uptimeAfter, stderr: result.stderr.trim().split('\n').slice(-3).join(' | ') });
      process.stderr.write(`${build.label} repeat ${repeat}: ${seconds.toFixed(1)} s (CPU ${String(cpuSeconds)} s), exit ${String(result.status)} (${uptimeAfter})\n`);
      rmSync(out, { force: true });
    }
  }
  const rows = builds.map((build) => {
    const finished = runs.filter((run) => run.label === build.label && run.exit === 0);
    const seconds = median(finished.map((run) => run.seconds));
    const cpuList = finished.flatMap((run) => (run.cpuSeconds === null ? [] : [run.cpuSeconds]));
    const cpuSeconds = cpuList.length > 0 ? median(cpuList) : null;
    return { label: build.label, path: build.path, medianSeconds: seconds, sentencesPerSecond: texts.length / seconds, cpuSeconds, sentencesPerCpuSecond: cpuSeconds === null ? null : texts.length / cpuSeconds };
  });
  const base = rows[0]!;
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', `${outName}.json`), `${JSON.stringify({ sentences: texts.length, repeats, rows, runs }, null, 2)}\n`);
  const table = rows.map(
    (row) =>
      `| ${row.label} | ${row.medianSeconds.toFixed(1)} | ${row.sentencesPerSecond.toFixed(1)} | ${(row.sentencesPerSecond / base.sentencesPerSecond).toFixed(2)} | ${row.cpuSeconds === null ? 'n/a' : row.cpuSeconds.toFixed(1)} | ${row.sentencesPerCpuSecond === null ? 'n/a' : row.sentencesPerCpuSecond.toFixed(1)} |`,
  );
  const loads = runs.map(
    (run) =>
      `- ${run.label}, repeat ${run.repeat + 1}: ${run.seconds.toFixed(1)} s (CPU ${run.cpuSeconds === null ? 'n/a' : `${run.cpuSeconds.toFixed(1)} s`}), exit ${String(run.exit)}; before: \`${run.uptimeBefore}\`; after: \`${run.uptimeAfter}\``,
  );
  writeFileSync(
    join(here, 'results', `${outName}.md`),
    `# \`factkit index --kind dense\` over ${texts.length} SciFact sentences, ${repeats} repeat(s) (median), builds in rotating order\n\nShared 2-core machine (other jobs running); \`uptime\` around every run below.\n\n| build | seconds | sentences/s | × ${base.label} | CPU seconds | sentences per CPU second |\n|---|---:|---:|---:|---:|---:|\n${table.join('\n')}\n\n${loads.join('\n')}\n`,
  );
  process.stdout.write(`${table.join('\n')}\n`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
