import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (path: string) => readFileSync(resolve(repoRoot, path), 'utf8');

describe("the README's two commands", () => {
  const pnpm = JSON.parse(read('package.json')).packageManager as string;
  const readme = read('README.md');

  it('fetch the pinned pnpm through npx (Node and npm only) to install and start, and to install and test', () => {
    expect(readme).toContain(`npx --yes ${pnpm} install && npx --yes ${pnpm} start`);
    expect(readme).toContain(`npx --yes ${pnpm} install && npx --yes ${pnpm} test`);
  });

  it('are what CI runs, and the test script checks for redis-server first', () => {
    expect(read('.ci/run')).toContain(
      'npx --yes "pnpm@$PNPM_VERSION" install && npx --yes "pnpm@$PNPM_VERSION" test',
    );
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    expect(scripts.test?.startsWith('node tooling/scripts/require-redis.mjs && ')).toBe(true);
    expect(scripts.start).toContain('@awaken/app-server');
  });
});
