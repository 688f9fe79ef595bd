/** The value at `fraction` (0..1) of the sorted samples; NaN for none. */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

export function p90(values: readonly number[]): number {
  return percentile(values, 0.9);
}

/** One side of a side-by-side measurement. */
export interface Contender<Input> {
  name: string;
  run(input: Input): Promise<unknown>;
}

/**
 * Runs every contender `warmup + rounds` times on `input`, rotating their order each round so none
 * always runs on a warmer (or colder) heap, and returns the measured milliseconds per contender name
 * (warm-up rounds dropped).
 */
export async function measureInterleaved<Input>(
  contenders: readonly Contender<Input>[],
  input: Input,
  options: { warmup: number; rounds: number },
): Promise<Map<string, number[]>> {
  const samples = new Map(contenders.map((contender) => [contender.name, [] as number[]]));
  for (let round = 0; round < options.warmup + options.rounds; round++) {
    for (let offset = 0; offset < contenders.length; offset++) {
      const contender = contenders[(round + offset) % contenders.length] as Contender<Input>;
      const start = performance.now();
      await contender.run(input);
      const elapsed = performance.now() - start;
      if (round >= options.warmup) samples.get(contender.name)?.push(elapsed);
    }
  }
  return samples;
}
