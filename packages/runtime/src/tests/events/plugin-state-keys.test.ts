import { type Plugin, defineStateKey } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../../../test-support/harness';

const counter = defineStateKey({ name: 'counter', scope: 'run', persistent: true, initial: () => 0 });
const stray = defineStateKey({ name: 'stray', scope: 'run', persistent: true, initial: () => 0 });

function plugin(id: string, declared: Plugin['stateKeys'], hook: Plugin['hooks']['stepStart']): Plugin {
  return { id, stateKeys: declared, hooks: { stepStart: hook } };
}

async function runWith(...plugins: Plugin[]) {
  const { runtime } = createHarness({ plugins }, { turns: [{ text: 'ok' }] });
  return runtime.runToCompletion({ agentId: 'agent', input: 'go' });
}

describe('plugin state keys are declared or refused', () => {
  it('lets a plugin read and write the keys it declares', async () => {
    const result = await runWith(
      plugin('counting', [counter], (context) => void context.state.update(counter, (n) => n + 1)),
    );
    expect(result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
  });

  it('refuses a write of an undeclared key with invalid_config naming the key and the plugin', async () => {
    const result = await runWith(plugin('sloppy', [counter], (context) => context.state.set(stray, 1)));
    expect(result.termination).toMatchObject({ type: 'error', code: 'invalid_config' });
    const message = (result.termination as { message: string }).message;
    expect(message).toContain('run:stray');
    expect(message).toContain('"sloppy"');
  });

  it('refuses reading an undeclared key, and a key only another plugin declares', async () => {
    const reader = await runWith(plugin('reader', [], (context) => void context.state.get(counter)));
    expect(reader.termination).toMatchObject({ type: 'error', code: 'invalid_config' });
    const borrower = await runWith(
      plugin('owner', [counter], () => {}),
      plugin('borrower', [], (context) => context.state.set(counter, 5)),
    );
    expect(borrower.termination).toMatchObject({ type: 'error', code: 'invalid_config' });
    expect((borrower.termination as { message: string }).message).toContain('"borrower"');
  });
});
