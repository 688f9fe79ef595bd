import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDependencyDirection, readWorkspace } from './check-dependency-direction';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function fixture(
  packages: Record<
    string,
    { dependencies?: Record<string, string>; source?: string; files?: Record<string, string> }
  >,
): string {
  const root = mkdtempSync(join(tmpdir(), 'awaken-deps-'));
  for (const [folder, spec] of Object.entries(packages)) {
    const dir = join(root, 'packages', folder);
    mkdirSync(join(dir, 'src'), { recursive: true });
    const manifest = { name: `@awaken/${folder}`, dependencies: spec.dependencies ?? {} };
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
    writeFileSync(join(dir, 'src', 'index.ts'), spec.source ?? 'export {};\n');
    for (const [path, text] of Object.entries(spec.files ?? {})) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  }
  return root;
}

const quote = "'";
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('dependency direction (docs/architecture.md)', () => {
  it('holds for every package of this repository', () => {
    expect(readWorkspace(repoRoot).length).toBeGreaterThan(2);
    expect(checkDependencyDirection(repoRoot)).toEqual([]);
  });

  it('rejects a protocol adapter that depends on the runtime', () => {
    const root = fixture({
      contract: {},
      runtime: { dependencies: { '@awaken/contract': 'workspace:*' } },
      'protocol-ai-sdk': { dependencies: { '@awaken/runtime': 'workspace:*' } },
    });
    roots.push(root);
    expect(checkDependencyDirection(root)).toEqual([
      "@awaken/protocol-ai-sdk -> @awaken/runtime: runtime dependency not allowed by the architecture's dependency table",
    ]);
  });

  it('rejects contract depending on anything of ours', () => {
    const root = fixture({ contract: { dependencies: { '@awaken/testing': 'workspace:*' } }, testing: {} });
    roots.push(root);
    expect(checkDependencyDirection(root)).toContain(
      "@awaken/contract -> @awaken/testing: runtime dependency not allowed by the architecture's dependency table",
    );
  });

  it('rejects an undeclared import and a deep import into another package', () => {
    const root = fixture({
      contract: {},
      'store-memory': {
        dependencies: { '@awaken/contract': 'workspace:*' },
        // Built from parts so this file's own text does not look like those imports.
        source: `import { x } from ${quote}@awaken/runtime${quote};\nimport { y } from ${quote}@awaken/contract/src/index${quote};\n`,
      },
    });
    roots.push(root);
    const violations = checkDependencyDirection(root);
    expect(violations.some((line) => line.includes('imports @awaken/runtime'))).toBe(true);
    expect(violations.some((line) => line.includes('deep import @awaken/contract/src/index'))).toBe(true);
  });

  it('checks test helpers outside src against dependencies and devDependencies', () => {
    const root = fixture({
      contract: {},
      runtime: {
        dependencies: { '@awaken/contract': 'workspace:*' },
        files: { 'test-support/harness.ts': `import { x } from ${quote}@awaken/store-redis${quote};\n` },
      },
    });
    roots.push(root);
    expect(checkDependencyDirection(root)).toEqual([
      'packages/runtime/test-support/harness.ts: imports @awaken/store-redis, which @awaken/runtime does not declare',
    ]);
  });

  it('rejects a package missing from the table', () => {
    const root = fixture({ 'rogue-package': {} });
    roots.push(root);
    expect(checkDependencyDirection(root)[0]).toContain(
      '@awaken/rogue-package: not in the allowed-edges table',
    );
  });
});
