// Shared by the int8, binary and file-backed dense benches: interleaved timing rounds over a set of contenders
// ("peers"), with medians, paired per-round ratios and the load average before and after timing.
import os from 'node:os';

export interface TimedPeer {
  readonly name: string;
  /** Queries one `task` answers (q/s = count / seconds). */
  readonly count: number;
  /** Runs untimed before each timed task (e.g. evicting a file from the page cache). */
  readonly before?: () => void;
  readonly task: () => unknown;
}

export const loadAverage = (): number[] => os.loadavg().map((value) => Number(value.toFixed(2)));

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export interface InterleavedTiming {
  readonly rates: Map<string, number[]>;
  readonly loadBefore: number[];
  readonly loadAfter: number[];
  /** Median q/s per peer (2 decimals). */
  readonly qps: Record<string, number>;
  /** Median over the rounds of q/s(a) / q/s(b) in the same round (2 decimals). */
  paired(a: string, b: string): number;
  /** q/s of every round per peer (2 decimals). */
  perRound(): Record<string, number[]>;
}

/** One warm-up pass per peer, then `repeats` rounds timing every peer once per round (GC forced before each). */
export async function timeInterleaved(peers: readonly TimedPeer[], repeats: number, progress: (message: string) => void): Promise<InterleavedTiming> {
  progress('warming up');
  for (const peer of peers) await peer.task();
  const loadBefore = loadAverage();
  const rates = new Map<string, number[]>(peers.map((peer) => [peer.name, []]));
  for (let round = 0; round < repeats; round += 1) {
    for (const peer of peers) {
      globalThis.gc?.();
      peer.before?.();
      const begin = performance.now();
      await peer.task();
      rates.get(peer.name)!.push(peer.count / ((performance.now() - begin) / 1000));
    }
    progress(`round ${round + 1}/${repeats}: ${peers.map((peer) => `${peer.name} ${(rates.get(peer.name)!.at(-1) as number).toFixed(1)}`).join(', ')} (load ${loadAverage().join(' ')})`);
  }
  const loadAfter = loadAverage();
  return {
    rates,
    loadBefore,
    loadAfter,
    qps: Object.fromEntries(peers.map((peer) => [peer.name, Number(median(rates.get(peer.name)!).toFixed(2))])),
    paired: (a, b) => Number(median(rates.get(a)!.map((rate, round) => rate / (rates.get(b)![round] as number))).toFixed(2)),
    perRound: () => Object.fromEntries([...rates].map(([name, values]) => [name, values.map((value) => Number(value.toFixed(2)))])),
  };
}
