import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  describeCycles,
  findImportCycles,
  moduleSpecifiers,
  resolveRelative,
  shippedSources,
} from './import-cycles';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

// Specifiers are built from parts so this file's own text holds no import of them.
const q = "'";
const from = (specifier: string) => `from ${q}${specifier}${q}`;

describe('import cycles: finding them', () => {
  it('finds a cycle of two files', () => {
    expect(
      findImportCycles({
        'src/a.ts': `import { b } ${from('./b')};\nexport const a = 1;\n`,
        'src/b.ts': `import { a } ${from('./a')};\nexport const b = 2;\n`,
        'src/c.ts': `import { a } ${from('./a')};\n`,
      }),
    ).toEqual([['src/a.ts', 'src/b.ts']]);
  });

  it('finds a file that imports itself', () => {
    expect(findImportCycles({ 'src/self.ts': `export * ${from('./self')};\n` })).toEqual([['src/self.ts']]);
  });

  it('counts type-only imports', () => {
    expect(
      findImportCycles({
        'src/a.ts': `import type { B } ${from('./b')};\nexport interface A { b: B }\n`,
        'src/b.ts': `import { type A } ${from('./a')};\nexport interface B { a: A }\n`,
      }),
    ).toEqual([['src/a.ts', 'src/b.ts']]);
  });

  it('counts `export … from`, `export * as`, dynamic `import()` and `typeof import()`', () => {
    const chain = (statement: string) =>
      findImportCycles({
        'src/a.ts': `${statement}\n`,
        'src/b.ts': `import { a } ${from('./a')};\n`,
      });
    expect(chain(`export { b } ${from('./b')};`)).toHaveLength(1);
    expect(chain(`export type { B } ${from('./b')};`)).toHaveLength(1);
    expect(chain(`export * as b ${from('./b')};`)).toHaveLength(1);
    expect(chain(`export async function load() { return import(${q}./b${q}); }`)).toHaveLength(1);
    expect(chain(`export type B = typeof import(${q}./b${q});`)).toHaveLength(1);
  });

  it('resolves a folder to its index.ts and a .js-suffixed specifier to the .ts file', () => {
    expect(
      findImportCycles({
        'src/index.ts': `export { helper } ${from('./internal/helper.js')};\n`,
        'src/internal/helper.ts': `import { version } ${from('..')};\nexport const helper = version;\n`,
      }),
    ).toEqual([['src/index.ts', 'src/internal/helper.ts']]);
    expect(
      findImportCycles({
        'src/feature/index.ts': `export { x } ${from('./x')};\n`,
        'src/feature/x.ts': `import { y } ${from('../other')};\nexport const x = y;\n`,
        'src/other.ts': `import { x } ${from('./feature')};\nexport const y = x;\n`,
      }),
    ).toEqual([['src/feature/index.ts', 'src/feature/x.ts', 'src/other.ts']]);
  });

  it('reads .tsx files', () => {
    expect(
      findImportCycles({
        'src/view.tsx': `import { model } ${from('./model')};\nexport const View = () => <div>{model}</div>;\n`,
        'src/model.ts': `import { View } ${from('./view.js')};\nexport const model = View;\n`,
      }),
    ).toEqual([['src/model.ts', 'src/view.tsx']]);
  });

  it('ignores package imports, comments, strings and files outside the set', () => {
    expect(
      findImportCycles({
        'src/a.ts': [
          `import { z } ${from('zod')};`,
          `// import { b } ${from('./b')};`,
          `/* export * ${from('./b')} */`,
          `export const text = "import { b } ${from('./b')}";`,
          `import { gone } ${from('./missing')};`,
        ].join('\n'),
        'src/b.ts': `import { text } ${from('./a')};\n`,
      }),
    ).toEqual([]);
  });

  it('reports separate cycles separately, whatever the chains around them', () => {
    const cycles = findImportCycles({
      'x/a.ts': `import ${q}./b${q};\n`,
      'x/b.ts': `import ${q}./c${q};\n`,
      'x/c.ts': `import ${q}./a${q};\nimport ${q}../y/d${q};\n`,
      'y/d.ts': `import ${q}./e${q};\n`,
      'y/e.ts': `import ${q}./d${q};\n`,
    });
    expect(cycles).toEqual([
      ['x/a.ts', 'x/b.ts', 'x/c.ts'],
      ['y/d.ts', 'y/e.ts'],
    ]);
    expect(describeCycles(cycles)).toBe('3 files: x/a.ts, x/b.ts, x/c.ts\n2 files: y/d.ts, y/e.ts');
  });

  it('lists the specifiers of a file as written', () => {
    expect(
      moduleSpecifiers(
        'a.ts',
        `import a ${from('./a')};\nimport ${q}./side${q};\nimport r = require(${q}./r${q});\n`,
      ),
    ).toEqual(['./a', './side', './r']);
  });

  it('resolves only relative specifiers', () => {
    const files = new Set(['src/a.ts', 'src/b.tsx', 'src/c/index.ts']);
    expect(resolveRelative('src/a.ts', './b.js', files)).toBe('src/b.tsx');
    expect(resolveRelative('src/a.ts', './c', files)).toBe('src/c/index.ts');
    expect(resolveRelative('src/c/index.ts', '../a.ts', files)).toBe('src/a.ts');
    expect(resolveRelative('src/a.ts', 'src/b', files)).toBeUndefined();
  });
});

describe('import cycles: the shipped source of this repository', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it('reads the non-test .ts/.tsx files under packages/*/src and apps/*/src, at any depth', () => {
    const root = mkdtempSync(join(tmpdir(), 'awaken-cycles-'));
    roots.push(root);
    const files = [
      'packages/p/src/index.ts',
      'packages/p/src/deep/er/x.tsx',
      'packages/p/src/x.test.ts',
      'packages/p/src/x.int.test.ts',
      'packages/p/src/types.d.ts',
      'packages/p/src/tests/story/story.ts',
      'packages/p/src/testing/helper.ts',
      'packages/p/test-support/harness.ts',
      'packages/p/scripts/tool.ts',
      'apps/a/src/main.ts',
      'tooling/t/src/check.ts',
    ];
    for (const file of files) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), 'export {};\n');
    }
    expect(Object.keys(shippedSources(root)).sort()).toEqual([
      'apps/a/src/main.ts',
      'packages/p/src/deep/er/x.tsx',
      'packages/p/src/index.ts',
    ]);
  });

  it('has no import cycles among the shipped source of the packages and apps', () => {
    const sources = shippedSources(repoRoot);
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    const cycles = findImportCycles(sources);
    expect(
      cycles,
      `${cycles.length} import cycle(s) among shipped source files (type-only imports count):\n${describeCycles(cycles)}`,
    ).toEqual([]);
  });
});
