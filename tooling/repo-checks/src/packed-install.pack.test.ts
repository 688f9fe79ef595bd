import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPackages } from './public-packages';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixture = join(root, 'tooling/repo-checks/fixtures/installed-project');

/** The environment without what the outer pnpm run set, so npm and pnpm read only their own config. */
const cleanEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_|vitest)/i.test(key))),
  NO_COLOR: '1',
  FORCE_COLOR: '0',
};

async function sh(command: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd, env: cleanEnv, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd}:\n${failed.stderr ?? ''}\n${failed.stdout ?? ''}`,
    );
  }
}

/** Runs `task` over `items`, `limit` at a time. */
async function inBatches<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
    }),
  );
}

let workdir: string;
let project: string;

// Packs every public package as `pnpm publish` would (prepack builds dist from a clean state), then
// installs the tarballs with npm into a project that has never seen the monorepo.
beforeAll(async () => {
  workdir = mkdtempSync(join(tmpdir(), 'awaken-packed-'));
  const tarballs = join(workdir, 'tarballs');
  project = join(workdir, 'project');
  const packages = publicPackages(root);
  await inBatches(packages, 2, async (pkg) => {
    rmSync(join(pkg.dir, 'dist'), { recursive: true, force: true });
    await sh('pnpm', ['pack', '--pack-destination', tarballs], pkg.dir);
  });
  const files = readdirSync(tarballs);
  const dependencies: Record<string, string> = {
    zod: '^4.1.0',
    ioredis: '^5.8.0',
    pg: '^8.11.0',
    '@ai-sdk/provider': '^3.0.0',
  };
  for (const pkg of packages) {
    const file = files.find(
      (name) => name === `${pkg.name.slice(1).replace('/', '-')}-${pkg.manifest.version}.tgz`,
    );
    if (file === undefined) throw new Error(`no tarball for ${pkg.name} in ${files.join(', ')}`);
    dependencies[pkg.name] = `file:../tarballs/${file}`;
  }
  cpSync(fixture, project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'fresh-project', private: true, type: 'module', dependencies }, null, 2),
  );
  // Peers are listed above; vitest (the conformance suites' peer) is linked from this repository
  // instead of being downloaded again.
  await sh('npm', ['install', '--legacy-peer-deps', '--prefer-offline', '--no-audit', '--no-fund'], project);
  symlinkSync(join(root, 'node_modules/vitest'), join(project, 'node_modules/vitest'), 'dir');
}, 240_000);

afterAll(() => {
  if (workdir !== undefined && process.env.KEEP_PACKED_PROJECT === undefined) {
    rmSync(workdir, { recursive: true, force: true });
  }
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the packed packages, installed with npm into a fresh project', () => {
  it('ship dist, a README and a LICENSE, and no reference to internal design notes', () => {
    const installed = join(project, 'node_modules/@awaken');
    for (const pkg of publicPackages(root)) {
      const dir = join(installed, pkg.name.split('/')[1] ?? '');
      const files = filesUnder(dir).map((file) => file.slice(dir.length + 1));
      expect(files, pkg.name).toEqual(
        expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts']),
      );
      for (const file of files) {
        const text = readFileSync(join(dir, file), 'utf8');
        expect(text, `${pkg.name}/${file}`).not.toMatch(
          /\bseeds?\s*0\d\d\b|DESIGN(\.md|\s*§)|\.\.\/shared\b/i,
        );
      }
    }
  });

  it('run an agent end to end with the scripted model: a tool round, a suspension, a decision', async () => {
    const output = await sh(process.execPath, ['agent.mjs'], project);
    expect(JSON.parse(output)).toEqual({
      waiting: 'waiting',
      status: 'done',
      response: 'Deployed.',
      description: 'service name',
    });
  });

  it('type-check a program against their declaration files', async () => {
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    await sh(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--skipLibCheck',
        'check-types.ts',
      ],
      project,
    );
  });

  it('let a third party run the published conformance suites against a store', async () => {
    const vitest = join(project, 'node_modules/vitest/vitest.mjs');
    const output = await sh(
      process.execPath,
      [vitest, 'run', '--root', project, '--reporter', 'dot'],
      project,
    );
    expect(output).toMatch(/Tests\s+\d+ passed/);
  });
});
