import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shippedSources } from './import-cycles';
import {
  describeMutualFolderImports,
  findMutualFolderImports,
  internalFolderOf,
  mutualPairName,
} from './mutual-folder-imports';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

// Specifiers are built from parts so this file's own text holds no import of them.
const q = "'";
const from = (specifier: string) => `from ${q}${specifier}${q}`;
const internal = 'packages/p/src/internal';

describe('mutual folder imports: finding them', () => {
  it('finds two folders of src/internal that import each other, with the imports each way', () => {
    const pairs = findMutualFolderImports({
      [`${internal}/session/run-session.ts`]: `import { Freshness } ${from('../inbox/freshness')};\n`,
      [`${internal}/inbox/freshness.ts`]: 'export class Freshness {}\n',
      [`${internal}/inbox/run-controls.ts`]: `import { RunSession } ${from('../session/run-session')};\n`,
      [`${internal}/loop/run-loop.ts`]: `import { RunSession } ${from('../session/run-session')};\n`,
    });
    expect(pairs).toEqual([
      {
        internal,
        folders: ['inbox', 'session'],
        imports: [
          'inbox/run-controls.ts → session/run-session.ts',
          'session/run-session.ts → inbox/freshness.ts',
        ],
      },
    ]);
    expect(describeMutualFolderImports(pairs)).toBe(
      `${internal}: inbox ↔ session (inbox/run-controls.ts → session/run-session.ts; session/run-session.ts → inbox/freshness.ts)`,
    );
  });

  it('counts type-only imports, `export … from` and files deeper in a folder', () => {
    expect(
      findMutualFolderImports({
        [`${internal}/tools/deep/call.ts`]: `import type { Gate } ${from('../../decisions/gate')};\n`,
        [`${internal}/decisions/gate.ts`]: `export type { Call } ${from('../tools/deep/call')};\n`,
      }).map(mutualPairName),
    ).toEqual([`${internal}: decisions ↔ tools`]);
  });

  it('passes folders that stack: one-way imports, imports within a folder, files directly in src/internal', () => {
    expect(
      findMutualFolderImports({
        [`${internal}/loop/run-loop.ts`]: `import ${q}../session/run-session${q};\nimport ${q}./step${q};\n`,
        [`${internal}/loop/step.ts`]: `import ${q}./run-loop${q};\nimport ${q}../flat${q};\n`,
        [`${internal}/session/run-session.ts`]: `import ${q}../flat${q};\n`,
        [`${internal}/flat.ts`]: `import ${q}./loop/run-loop${q};\nimport ${q}./session/run-session${q};\n`,
      }),
    ).toEqual([]);
  });

  it('pairs folders of one src/internal only, and finds each package’s pairs', () => {
    const other = 'packages/q/src/internal';
    const pairs = findMutualFolderImports({
      [`${internal}/a/x.ts`]: `import ${q}../../../../q/src/internal/b/y${q};\n`,
      [`${other}/b/y.ts`]: `import ${q}../../../../p/src/internal/a/x${q};\n`,
      [`${other}/c/z.ts`]: `import ${q}../d/w${q};\n`,
      [`${other}/d/w.ts`]: `import ${q}../c/z${q};\n`,
      [`${internal}/e/v.ts`]: `import ${q}../f/u${q};\n`,
      [`${internal}/f/u.ts`]: `import ${q}../e/v${q};\n`,
    });
    expect(pairs.map(mutualPairName)).toEqual([`${internal}: e ↔ f`, `${other}: c ↔ d`]);
  });

  it('names the src/internal folder and first-level folder of a file', () => {
    expect(internalFolderOf(`${internal}/session/deep/x.ts`)).toEqual({ internal, folder: 'session' });
    expect(internalFolderOf('src/internal/loop/run-loop.ts')).toEqual({
      internal: 'src/internal',
      folder: 'loop',
    });
    expect(internalFolderOf(`${internal}/flat.ts`)).toBeUndefined();
    expect(internalFolderOf('packages/p/src/loop/run-loop.ts')).toBeUndefined();
  });
});

/**
 * Pairs that existed when this check was added, each with why it stands; the check holds every other
 * folder of every package. A pair broken since must leave this list (the test says so).
 */
const KNOWN_PAIRS: ReadonlyMap<string, string> = new Map([
  [
    'packages/server/src/internal: dispatch ↔ leases',
    'a dispatch starts its lease heartbeat (leases/lease-heartbeat.ts) and the lease sweeper ends a ' +
      'dead-lettered run (dispatch/end-dead-lettered-run.ts); issue 32 asked only the runtime’s folders to stack',
  ],
]);

describe('mutual folder imports: the shipped source of this repository', () => {
  it('has no two folders of a src/internal/ that import each other (runtime, every package)', () => {
    const sources = shippedSources(repoRoot);
    const runtimeFolders = new Set(
      Object.keys(sources).flatMap((file) => {
        const at = internalFolderOf(file);
        return at?.internal === 'packages/runtime/src/internal' ? [at.folder] : [];
      }),
    );
    expect(runtimeFolders.size).toBeGreaterThanOrEqual(8);
    const pairs = findMutualFolderImports(sources);
    const unknown = pairs.filter((pair) => !KNOWN_PAIRS.has(mutualPairName(pair)));
    expect(
      unknown,
      `${unknown.length} pair(s) of folders import each other (type-only imports count); move what both ` +
        `use into the lower folder:\n${describeMutualFolderImports(unknown)}`,
    ).toEqual([]);
    const gone = [...KNOWN_PAIRS.keys()].filter(
      (name) => !pairs.some((pair) => mutualPairName(pair) === name),
    );
    expect(gone, 'known pairs no longer found: remove them from KNOWN_PAIRS').toEqual([]);
  });
});
