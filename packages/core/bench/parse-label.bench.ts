// Benchmark: core parseLabel against the verdict parser it replaces (nli-match's parseVerdictLabel before the kit,
// copied below verbatim as the baseline), on replies that repeat label words. Medians over repeats; the machine may be
// shared, so read ratios, not absolute times. Run: pnpm --filter @factkit/core bench
import { createLabelParser } from '../src/index.js';

/** Baseline: nli-match src/study/parse-verdict-label.ts at ddae234 (masks each occurrence by rebuilding the string). */
function baselineParseVerdictLabel(raw: string, labels: readonly string[]): string | null {
  const simplify = (text: string) =>
    ` ${text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()} `;
  let answer = simplify(raw).replace(/^ (?:final )?(?:label|answer|verdict) /u, ' ');
  if (answer.trim() === '') return null;
  const candidates = [...labels].filter((label) => simplify(label).trim() !== '').sort((a, b) => simplify(b).length - simplify(a).length);
  const found: { label: string; index: number }[] = [];
  for (const label of candidates) {
    const needle = simplify(label);
    let index = answer.indexOf(needle);
    while (index !== -1) {
      found.push({ label, index });
      answer = `${answer.slice(0, index)} ${'#'.repeat(needle.length - 2)} ${answer.slice(index + needle.length)}`;
      index = answer.indexOf(needle);
    }
  }
  if (found.length === 0) return null;
  found.sort((a, b) => a.index - b.index);
  const first = found[0] as { label: string; index: number };
  if (first.index === 0 || new Set(found.map((entry) => entry.label)).size === 1) return first.label;
  return null;
}

const LABELS = ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'] as const;
const parse = createLabelParser({ labels: LABELS });
const sentence = 'The evidence supports the claim, and nothing refutes it. ';

function median(run: () => void, repeats: number): number {
  const times: number[] = [];
  for (let i = 0; i < repeats; i += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const rows: string[] = ['| reply size | parseLabel (median ms) | pre-kit verdict parser (median ms) | ratio |', '|---|---|---|---|'];
for (const kilobytes of [16, 64, 256, 1024]) {
  const reply = `${sentence.repeat(Math.ceil((kilobytes * 1024) / sentence.length))}\nVerdict: SUPPORTS`;
  for (let i = 0; i < 3; i += 1) parse(reply); // warm up
  const ours = median(() => parse(reply), 7);
  // The baseline is quadratic: only time it where it ends in reasonable time (one run above 256 KB).
  const baseline = kilobytes <= 256 ? median(() => baselineParseVerdictLabel(reply, LABELS), kilobytes <= 64 ? 5 : 1) : Number.NaN;
  rows.push(`| ${kilobytes} KB | ${ours.toFixed(1)} | ${Number.isNaN(baseline) ? 'not run (quadratic)' : baseline.toFixed(1)} | ${Number.isNaN(baseline) ? '-' : `${(baseline / ours).toFixed(0)}x`} |`);
}
console.log(rows.join('\n'));
