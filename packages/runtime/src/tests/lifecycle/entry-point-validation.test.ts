import { describe, expect, it } from 'vitest';
import { createSharedStores } from '../../../test-support/shared-stores';

const invalidPayload = [expect.objectContaining({ status: 'rejected', reason: 'invalid_payload' })];

function validationFailed(field: string) {
  return expect.objectContaining({ code: 'validation_failed', details: expect.objectContaining({ field }) });
}

describe('bad input at the public entry points', () => {
  it('a decision that is not an object is rejected (invalid_payload), by decide and by resumeRun', async () => {
    const s = createSharedStores();
    const runtime = s.runtime();
    const live = runtime.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await s.store.getRun('r'))?.status).toBe('waiting');
    await expect(live.decide(null as never)).resolves.toEqual(invalidPayload);
    await expect(live.decide([null] as never)).resolves.toEqual(invalidPayload);
    await expect(live.decide(['approve'] as never)).resolves.toEqual(invalidPayload);
    live.cancel();
    await live.result;

    await runtime.runToCompletion({ agentId: 'agent', runId: 'w', threadId: 't2', input: 'go' });
    const resumed = runtime.resumeRun('w', { decisions: [null] as never });
    await expect(resumed.receipts).resolves.toEqual(invalidPayload);
    expect(await resumed.result).toMatchObject({ status: 'waiting' });
  });

  it('malformed resumeRun and run options are validation_failed naming the field, before anything runs', async () => {
    const s = createSharedStores();
    const runtime = s.runtime();
    await runtime.runToCompletion({ agentId: 'agent', runId: 'w', threadId: 't', input: 'go' });
    const before = await s.store.getRun('w');
    expect(() => runtime.resumeRun('w', { decisions: {} as never })).toThrow(validationFailed('decisions'));
    expect(() => runtime.resumeRun('w', { decisions: 'x' as never })).toThrow(validationFailed('decisions'));
    expect(() => runtime.resumeRun('w', { onSuspend: 'bogus' as never })).toThrow(
      validationFailed('onSuspend'),
    );
    expect(() => runtime.resumeRun('w', { signal: 'stop' as never })).toThrow(validationFailed('signal'));
    expect(() => runtime.resumeRun('')).toThrow(validationFailed('runId'));
    expect(() => runtime.resumeRun(42 as never)).toThrow(validationFailed('runId'));
    expect(() =>
      runtime.run({ agentId: 'agent', threadId: 't3', input: 'go', onSuspend: 'bogus' as never }),
    ).toThrow(validationFailed('onSuspend'));
    expect(() => runtime.run({ agentId: 'agent', runId: '', input: 'go' })).toThrow(
      validationFailed('runId'),
    );
    expect(() => runtime.run({ agentId: 'agent', input: 7 as never })).toThrow(validationFailed('input'));
    expect(() => runtime.run(null as never)).toThrow(validationFailed('request'));
    await expect(runtime.cancelRun('')).rejects.toEqual(validationFailed('runId'));
    await expect(runtime.cancelRun('w', 5 as never)).rejects.toEqual(validationFailed('reason'));
    expect(await s.store.getRun('w')).toEqual(before);
    expect(await s.store.getThread('t3')).toBeNull();
  });
});
