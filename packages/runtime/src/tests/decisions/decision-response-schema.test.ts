import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve, createHarness, storedRun, until } from '../../../test-support/harness';
import { readToolCallStates } from '@awaken/contract';

const callDanger = { toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] };

/** A run waiting on one `danger` call whose suspension carries `responseSchema`. */
async function waitingOn(responseSchema: Record<string, unknown>) {
  const danger = recordingTool('danger');
  const { runtime, store } = createHarness(
    { tools: [danger.tool], plugins: [approvalPlugin(['danger'], responseSchema)] },
    { turns: [callDanger, { text: 'ok' }] },
  );
  const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
  await until(async () => (await store.getRun(handle.runId))?.status === 'waiting');
  return { handle, store, danger };
}

describe('decision payloads checked against the response schema', () => {
  it('rejects a payload hitting a false subschema instead of throwing out of decide()', async () => {
    const { handle, store, danger } = await waitingOn({
      type: 'object',
      properties: { approved: { type: 'boolean' }, override: false },
      required: ['approved'],
    });
    const [receipt] = await handle.decide(approve('a', { approved: true, override: 'rm -rf' }, 'bad'));
    expect(receipt).toMatchObject({ status: 'rejected', reason: 'invalid_payload' });
    expect((receipt as { message: string }).message).toContain('override');
    expect(danger.count()).toBe(0);
    expect(readToolCallStates(await storedRun(store, handle.runId))[0]?.status).toBe('suspended');
    expect(await handle.decide(approve('a', { approved: true }, 'good'))).toMatchObject([
      { status: 'accepted' },
    ]);
    expect(await handle.result).toMatchObject({ status: 'done' });
  });

  it('checks a recursive payload through $ref at every depth', async () => {
    const { handle } = await waitingOn({
      $defs: {
        step: {
          type: 'object',
          properties: { name: { type: 'string' }, next: { type: 'array', items: { $ref: '#/$defs/step' } } },
          required: ['name'],
          additionalProperties: false,
        },
      },
      $ref: '#/$defs/step',
    });
    const nested = { name: 'a', next: [{ name: 'b', next: [{ name: 'c', sneaky: true }] }] };
    const [receipt] = await handle.decide(approve('a', nested, 'bad'));
    expect(receipt).toMatchObject({ status: 'rejected', reason: 'invalid_payload' });
    expect((receipt as { message: string }).message).toContain('next[0].next[0].sneaky');
    handle.cancel('done');
    await handle.result;
  });
});
