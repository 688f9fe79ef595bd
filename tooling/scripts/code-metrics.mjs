// Measurements of the shape of the shipped source: `pnpm run metrics` (or `node tooling/scripts/code-metrics.mjs`
// from the repository root), `--only lines,duplicates,decision-path` for some of them.
//
// Shipped source: the `.ts`/`.tsx` files under `packages/<name>/src` and `apps/<name>/src`, found by
// walking, without tests (`*.test.ts(x)`, `*.spec.ts(x)`), declarations (`*.d.ts`) or the folders
// `tests/`, `__tests__/`, `test-support/`, `testing/`, `findings/`, `fixtures/`, `dist/`,
// `node_modules/` — the same files the import-cycle check of tooling/repo-checks reads.
//
// lines: per package, the number of files, the median and the 90th percentile (nearest rank) of the
//   lines per file — physical lines, blank lines and comments included.
// duplicates: the pairs of places sharing 6 or more lines (same lines, or same shape with other
//   names), found by the `duplicates` command (not part of the repository; skipped when it is not on
//   the PATH). It has no option to leave tests out and no machine-readable output, so the shipped files
//   are copied into a temporary folder and this runs, then prints its summary line and first rows:
//     duplicates --repo <that folder> --most 200 --seconds 120
// decision-path: the source files one decision crosses, from the runtime's `handle.decide` and from
//   each door of the server (the REST decision route, an AI SDK chat continuation, an AG-UI resume,
//   an A2A SendMessage) to the checkpoint that records the replayed call, and per door how many times
//   `judgeDecision` runs for that decision: `packages/runtime/test-support/decision-path.ts` and
//   `packages/server/test-support/decision-path.ts` (their headers say what they count), run with
//   each package's tsx.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const NOT_SHIPPED_FOLDERS = new Set([
  'node_modules',
  'dist',
  'tests',
  '__tests__',
  'test-support',
  'testing',
  'findings',
  'fixtures',
]);
const SOURCE_FILE = /\.tsx?$/;
const NOT_SHIPPED_FILE = /\.(test|spec)\.tsx?$|\.d\.ts$/;

function shippedFilesUnder(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return NOT_SHIPPED_FOLDERS.has(entry) ? [] : shippedFilesUnder(path);
    return SOURCE_FILE.test(entry) && !NOT_SHIPPED_FILE.test(entry) ? [path] : [];
  });
}

/** `[{ folder: 'packages/runtime', files: [absolute paths] }]` for every package and app with a src/. */
function shippedByPackage() {
  const found = [];
  for (const group of ['packages', 'apps']) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) {
      const src = join(base, name, 'src');
      if (existsSync(src) && statSync(src).isDirectory())
        found.push({ folder: `${group}/${name}`, files: shippedFilesUnder(src) });
    }
  }
  return found;
}

function lineCount(path) {
  const text = readFileSync(path, 'utf8');
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function median(sorted) {
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

function linesTable() {
  const rows = [];
  const everything = [];
  for (const { folder, files } of shippedByPackage()) {
    const lines = files.map(lineCount).sort((a, b) => a - b);
    everything.push(...lines);
    rows.push([folder, lines.length, median(lines), percentile(lines, 90), lines.at(-1) ?? 0]);
  }
  everything.sort((a, b) => a - b);
  rows.push([
    'all',
    everything.length,
    median(everything),
    percentile(everything, 90),
    everything.at(-1) ?? 0,
  ]);
  const header = ['package', 'files', 'median', 'p90', 'max'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => String(row[column]).length)),
  );
  const format = (row) =>
    row
      .map((cell, column) =>
        column === 0 ? String(cell).padEnd(widths[0]) : String(cell).padStart(widths[column]),
      )
      .join('  ');
  console.log('## lines per shipped source file');
  console.log(format(header));
  for (const row of rows) console.log(format(row));
}

function duplicatesSummary() {
  console.log('## repeated blocks in shipped source (duplicates, 6+ lines)');
  const probe = spawnSync('duplicates', ['--help'], { stdio: 'ignore' });
  if (probe.error) {
    console.log('skipped: the `duplicates` command is not on the PATH');
    return;
  }
  const copy = mkdtempSync(join(tmpdir(), 'awaken-shipped-'));
  try {
    for (const { files } of shippedByPackage()) {
      for (const file of files) {
        const target = join(copy, relative(root, file));
        mkdirSync(dirname(target), { recursive: true });
        cpSync(file, target);
      }
    }
    const run = spawnSync('duplicates', ['--repo', copy, '--most', '200', '--seconds', '120'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const lines = (run.stdout ?? '').split('\n').filter((line) => line.trim() !== '');
    const summary = lines[0] ?? '(no output)';
    const pairs = /^no duplicates/.test(summary)
      ? 0
      : Number(/^(\d+) pairs?\b/.exec(summary)?.[1] ?? Number.NaN);
    console.log(`pairs: ${Number.isNaN(pairs) ? 'unknown (summary line not understood)' : pairs}`);
    console.log(summary.split(copy + sep).join(''));
    for (const line of lines.slice(1, 11).filter((row) => /^D\d+ /.test(row)))
      console.log(line.split(copy + sep).join(''));
    const rows = lines.slice(1).filter((line) => /^D\d+ /.test(line));
    if (rows.length > 10) console.log(`… ${rows.length - 10} more rows`);
    // what it passed over or did not reach (the rows speak only of what it read)
    for (const line of lines.slice(1)) {
      if (/^(left out|incomplete):/.test(line)) console.log(line.split(copy + sep).join(''));
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function decisionPaths() {
  for (const folder of ['packages/runtime', 'packages/server']) {
    const script = join(root, folder, 'test-support', 'decision-path.ts');
    const tsx = join(root, folder, 'node_modules', '.bin', 'tsx');
    console.log(`## decision path: ${folder}/test-support/decision-path.ts`);
    if (!existsSync(script) || !existsSync(tsx)) {
      console.log('skipped: the script or its package’s tsx is missing (run pnpm install)');
      continue;
    }
    const run = spawnSync(tsx, [script], { cwd: join(root, folder), stdio: 'inherit' });
    if (run.status !== 0) process.exitCode = 1;
  }
}

const onlyAt = process.argv.indexOf('--only');
const only =
  onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '').split(',') : ['lines', 'duplicates', 'decision-path'];
const sections = { lines: linesTable, duplicates: duplicatesSummary, 'decision-path': decisionPaths };
for (const name of only) {
  if (!(name in sections)) {
    console.error(`unknown section ${name}; known: ${Object.keys(sections).join(', ')}`);
    process.exit(2);
  }
}
console.log(
  `# code metrics at ${spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim() || '?'}`,
);
for (const name of only) sections[name]();
