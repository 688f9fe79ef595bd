import { AwakenError, type UserMessage } from '@awaken/contract';
import { createScriptedModel } from '@awaken/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { type RedisTestBed, openTestBed } from '../../../test-support/redis-harness';

/**
 * 9,000 input messages in one checkpoint: more arguments than one Redis script call takes today. The
 * store may take it (then the run ends normally) or refuse it; either way nothing is left stuck.
 */
describe('a checkpoint with thousands of messages on Redis', () => {
  let bed: RedisTestBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('never leaves a zombie: a refused run emits no run_finish, stays open and is cancelled cleanly', async () => {
    const test = openTestBed(inject('redisUrl'), 'approvals');
    bed = test;
    const { threadRuns, eventLog, inbox } = test.stores;
    const runtime = createAgentRuntime({
      agents: [{ id: 'agent', model: createScriptedModel(() => ({ text: 'read them all' })) }],
      stores: { threadRuns, eventLog, inbox },
    });
    const input: UserMessage[] = Array.from({ length: 9_000 }, (_, index) => ({
      role: 'user',
      content: `m${index}`,
    }));
    const ids = { runId: test.runId, threadId: test.threadId };
    const outcome = await runtime.runToCompletion({ agentId: 'agent', ...ids, input }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    if ('result' in outcome) {
      expect(outcome.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    } else {
      expect(AwakenError.isInstance(outcome.error)).toBe(true);
      expect((await test.run()).status).not.toBe('done');
      expect((await test.events()).some((event) => event.type === 'run_finish')).toBe(false);
      expect(await eventLog.isFinished(test.runId)).toBe(false);
      const cancelled = await runtime.cancelRun(test.runId, 'too big');
      expect(cancelled).toMatchObject({
        status: 'done',
        termination: { type: 'cancelled', reason: 'too big' },
      });
    }
    const record = await test.run();
    expect(record.status).toBe('done');
    const events = await test.events();
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.at(-1)).toMatchObject({
      type: 'run_finish',
      status: 'done',
      termination: record.termination,
    });
    expect(await eventLog.isFinished(test.runId)).toBe(true);
    const thread = await threadRuns.getThread(test.threadId);
    expect(thread?.activeRunId).toBeUndefined();
    expect(thread?.openRunId).toBeUndefined();
  });
});
