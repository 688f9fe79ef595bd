import { Session } from 'node:inspector';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** V8's precise coverage at function granularity, as `Profiler.takePreciseCoverage` returns it. */
export interface Coverage {
  result: Array<{
    url: string;
    functions: Array<{ functionName: string; ranges: Array<{ count: number }> }>;
  }>;
}

/** What ran in one window, per file: the functions with a count above zero and the sum of their counts. */
export interface FileCount {
  functions: string[];
  invocations: number;
}

/** A window's coverage, tallied: our source files per package folder, dependencies summed apart. */
export interface Tally {
  /** package folder (`packages/runtime`) → file under its `src/` → counts */
  ours: Map<string, Map<string, FileCount>>;
  /** dependency name → counts, with how many of its files ran */
  dependencies: Map<string, FileCount & { files: number }>;
}

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * V8's precise coverage of this process through node:inspector (`callCount: true`, function
 * granularity): `start` turns it on, each `take` returns the counts since the previous `take` (or
 * `start`) and resets them, so consecutive takes are consecutive windows.
 */
export class CoverageWindow {
  readonly #inspector = new Session();

  constructor() {
    this.#inspector.connect();
  }

  #post<T>(method: string, params?: object): Promise<T> {
    return new Promise<T>((done, fail) =>
      this.#inspector.post(method, params, (error, result) => (error ? fail(error) : done(result as T))),
    );
  }

  async start(): Promise<void> {
    await this.#post('Profiler.enable');
    await this.#post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  }

  take(): Promise<Coverage> {
    return this.#post<Coverage>('Profiler.takePreciseCoverage');
  }

  stop(): void {
    this.#inspector.disconnect();
  }
}

/** How many times the function `name` of the repository file `path` ran in `coverage`. */
export function invocationsOf(coverage: Coverage, path: string, name: string): number {
  let count = 0;
  for (const script of coverage.result) {
    if (!script.url.startsWith('file://')) continue;
    if (relative(repoRoot, fileURLToPath(script.url)).split(sep).join('/') !== path) continue;
    for (const fn of script.functions) if (fn.functionName === name) count += fn.ranges[0]?.count ?? 0;
  }
  return count;
}

/** The files of `coverage` with a function that ran, by package (`packages|apps/<name>/src/…`) and dependency. */
export function tally(coverage: Coverage): Tally {
  const ours: Tally['ours'] = new Map();
  const dependencies: Tally['dependencies'] = new Map();
  for (const script of coverage.result) {
    if (!script.url.startsWith('file://')) continue;
    const ran = script.functions.filter((fn) => (fn.ranges[0]?.count ?? 0) > 0);
    if (ran.length === 0) continue;
    const count: FileCount = {
      functions: ran.map((fn) => fn.functionName || '(top level)'),
      invocations: ran.reduce((sum, fn) => sum + (fn.ranges[0]?.count ?? 0), 0),
    };
    const path = relative(repoRoot, fileURLToPath(script.url)).split(sep).join('/');
    const modules = path.lastIndexOf('node_modules/');
    if (modules >= 0) {
      const parts = path.slice(modules + 'node_modules/'.length).split('/');
      const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? '?');
      const sum = dependencies.get(name) ?? { functions: [], invocations: 0, files: 0 };
      sum.functions.push(...count.functions);
      sum.invocations += count.invocations;
      sum.files += 1;
      dependencies.set(name, sum);
      continue;
    }
    const match = /^((?:packages|apps)\/[^/]+)\/src\/(.+)$/.exec(path);
    if (!match?.[1] || !match[2]) continue; // the script itself, test-support, …
    const files = ours.get(match[1]) ?? new Map<string, FileCount>();
    files.set(match[2], count);
    ours.set(match[1], files);
  }
  return { ours, dependencies };
}
