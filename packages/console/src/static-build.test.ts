import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { STATIC_DIR } from './static-files';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'console-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const files = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length).replace(/^\//, ''))
    .sort();

describe('the committed build (static/)', () => {
  it('is what `build:web` makes of web/ now (rebuild and commit static/ after changing the app)', async () => {
    // vitest runs with NODE_ENV=test, which would make Vite build React's development bundle
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        configFile: join(packageDir, 'vite.config.ts'),
        root: join(packageDir, 'web'),
        logLevel: 'silent',
        mode: 'production',
        build: { outDir, emptyOutDir: true },
      });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    expect(files(STATIC_DIR)).toEqual(files(outDir));
    expect(readFileSync(join(STATIC_DIR, 'index.html'), 'utf8')).toBe(
      readFileSync(join(outDir, 'index.html'), 'utf8'),
    );
  }, 120_000);
});
