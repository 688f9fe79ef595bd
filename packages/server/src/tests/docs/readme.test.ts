import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { deleted } from '../../../test-support/readme-agents';

const packageDir = fileURLToPath(new URL('../../..', import.meta.url));

/** The first `ts` code block of the README, with its two imports pointed at this checkout. */
function readmeExample(): string {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README has no ts example');
  return block
    .replace("'@awaken/server'", JSON.stringify(join(packageDir, 'src/index.ts')))
    .replace("'./my-agents'", JSON.stringify(join(packageDir, 'test-support/readme-agents.ts')));
}

describe('README', () => {
  it('runs the embedding example as written', async () => {
    const dir = mkdtempSync(join(packageDir, '.readme-'));
    const file = join(dir, 'example.ts');
    writeFileSync(file, readmeExample());
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(file);
      const lines = log.mock.calls.map((call) => String(call[0]));
      expect(lines[0]).toBe('run_start');
      expect(lines).toContain('tool_call_suspended');
      expect(lines.slice(-2)).toEqual(['accepted', 'deleted /tmp/a']);
      expect(deleted).toEqual(['/tmp/a']);
    } finally {
      log.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
