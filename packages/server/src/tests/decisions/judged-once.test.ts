import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The decision-path script (`node tooling/scripts/code-metrics.mjs --only decision-path`) sends one
 * decision through each door of a real app and counts, from V8's own coverage, how often
 * `judgeDecision` ran until the checkpoint that records it. Run here so the script cannot break
 * unnoticed again, and so a door that judges twice fails the tests.
 */
function decisionPath(): { status: number | null; output: string } {
  const tsx = join(packageDir, 'node_modules', '.bin', 'tsx');
  const run = spawnSync(tsx, [join(packageDir, 'test-support', 'decision-path.ts')], {
    cwd: packageDir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('one decision, judged once on every door', () => {
  it('REST, AI SDK, AG-UI and A2A each judge a decision once, plus the live gate applying it', () => {
    const { status, output } = decisionPath();
    expect(status, output).toBe(0);
    for (const door of ['REST decision route', 'AI SDK chat', 'AG-UI resume', 'A2A SendMessage']) {
      const row = output.split('\n').find((line) => line.startsWith(door));
      expect(row, `${door} missing from:\n${output}`).toBeDefined();
      // the last column: judgeDecision runs from the request to the checkpoint recording the decision
      expect(Number(row?.trim().split(/\s+/).at(-1)), row).toBe(2);
    }
  });
});
