import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { publicPackages, readManifests } from './public-packages';

/**
 * A release must never be blocked unnoticed: `changeset status` on the real tree (read-only) and a
 * `changeset version` on a scratch copy of what it reads — the root and workspace manifests and
 * `.changeset/` — with the versions it writes checked against the pending changesets. No network:
 * the default changelog writer reads nothing but the changesets.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const changesetCli = join(root, 'node_modules/@changesets/cli/bin.js');
const BUMPS = ['patch', 'minor', 'major'] as const;
type Bump = (typeof BUMPS)[number];

/** The pending changesets: file name → the packages each names and their bump. */
function pendingChangesets(dir: string): Map<string, Map<string, Bump>> {
  const found = new Map<string, Map<string, Bump>>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'README.md')) {
    const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? '';
    const releases = new Map<string, Bump>();
    for (const match of front.matchAll(/^["']?([^"':\s]+)["']?\s*:\s*(patch|minor|major)\s*$/gm))
      releases.set(match[1] as string, match[2] as Bump);
    found.set(file, releases);
  }
  return found;
}

function bumped(version: string, bump: Bump): string {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

function changeset(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [changesetCli, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

/** A copy of what `changeset version` reads, with the repository's node_modules linked in. */
function scratchCopy(): string {
  const scratch = mkdtempSync(join(tmpdir(), 'awaken-release-'));
  for (const file of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(root, file), join(scratch, file));
  cpSync(join(root, '.changeset'), join(scratch, '.changeset'), { recursive: true });
  for (const pkg of readManifests(root)) {
    mkdirSync(join(scratch, pkg.folder), { recursive: true });
    cpSync(join(pkg.dir, 'package.json'), join(scratch, pkg.folder, 'package.json'));
  }
  // the changelog writer (`@changesets/cli/changelog`) is resolved from the project
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  return scratch;
}

const scratches: string[] = [];
afterAll(() => {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});

describe('the release plan', () => {
  const published = new Set(publicPackages(root).map((pkg) => pkg.name));
  const pending = pendingChangesets(join(root, '.changeset'));

  it('names only published packages in every changeset (a private one makes the changeset "mixed")', () => {
    const strays = [...pending].flatMap(([file, releases]) =>
      [...releases.keys()].filter((name) => !published.has(name)).map((name) => `${file}: ${name}`),
    );
    expect(strays).toEqual([]);
  });

  it('passes `changeset status`', () => {
    const { status, output } = changeset(root, 'status');
    expect(status, output).toBe(0);
  });

  it('versions a scratch copy: the one fixed group moves together by the largest pending bump', () => {
    const before = readFileSync(join(root, 'packages/contract/package.json'), 'utf8');
    const changesetFiles = readdirSync(join(root, '.changeset')).sort();
    const scratch = scratchCopy();
    scratches.push(scratch);

    const { status, output } = changeset(scratch, 'version');
    expect(status, output).toBe(0);

    const named = new Set([...pending.values()].flatMap((releases) => [...releases.values()]));
    const largest = [...BUMPS].reverse().find((bump) => named.has(bump));
    const highest = publicPackages(root)
      .map((pkg) => String(pkg.manifest.version))
      .sort(compareVersions)
      .at(-1);
    const versioned = readManifests(scratch);
    expect(versioned.map((pkg) => pkg.name)).toEqual(readManifests(root).map((pkg) => pkg.name));
    for (const pkg of versioned) {
      const was = readManifests(root).find((original) => original.name === pkg.name)?.manifest.version;
      if (!published.has(pkg.name)) {
        expect(pkg.manifest.version, `${pkg.name} is private: never versioned`).toBe(was);
        continue;
      }
      expect(pkg.manifest.version, pkg.name).toBe(largest && highest ? bumped(highest, largest) : was);
      if (largest) expect(existsSync(join(pkg.dir, 'CHANGELOG.md')), `${pkg.name} CHANGELOG.md`).toBe(true);
    }
    // every changeset was consumed, in the copy only
    expect(readdirSync(join(scratch, '.changeset')).filter((name) => name.endsWith('.md'))).toEqual(
      readdirSync(join(root, '.changeset')).filter((name) => name === 'README.md'),
    );
    expect(readdirSync(join(root, '.changeset')).sort()).toEqual(changesetFiles);
    expect(readFileSync(join(root, 'packages/contract/package.json'), 'utf8')).toBe(before);
  });
});

function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < 3; index += 1) {
    const diff = (left[index] ?? 0) - (right[index] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
