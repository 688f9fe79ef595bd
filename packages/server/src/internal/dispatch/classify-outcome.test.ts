import { AwakenError, EMPTY_USAGE, type RunRecord } from '@awaken/contract';
import type { RunResult } from '@awaken/runtime';
import { describe, expect, it } from 'vitest';
import { classifyOutcome } from './classify-outcome';

const result = (patch: Partial<RunResult>): RunResult => ({
  runId: 'r',
  threadId: 't',
  status: 'done',
  termination: { type: 'natural_end' },
  usage: EMPTY_USAGE,
  steps: 1,
  ...patch,
});

describe('classifyOutcome', () => {
  it('acks a run that is done or waits, with its projection', () => {
    expect(classifyOutcome({ type: 'result', result: result({ response: 'hi' }) })).toEqual({
      action: 'ack',
      result: { runId: 'r', status: 'done', termination: { type: 'natural_end' }, response: 'hi' },
    });
    expect(
      classifyOutcome({
        type: 'result',
        result: result({ status: 'waiting', termination: { type: 'suspended' } }),
      }),
    ).toMatchObject({ action: 'ack', result: { status: 'waiting' } });
  });

  it('dead-letters a run that ended with an error: it was executed once and is not retried', () => {
    const plan = classifyOutcome({
      type: 'result',
      result: result({ termination: { type: 'error', message: 'model refused', code: 'model_permanent' } }),
    });
    expect(plan).toMatchObject({ action: 'dead_letter', result: { error: 'model refused' } });
    expect(plan).not.toHaveProperty('endReason');
  });

  it('retries a transient failure, keeping the provider retry hint', () => {
    const error = new AwakenError('model_transient', 'overloaded', { retryable: true, retryAfterMs: 1200 });
    expect(classifyOutcome({ type: 'failed', error })).toEqual({
      action: 'retry',
      // in our words: the provider's own text goes to the log
      error: 'the model provider was unavailable',
      retryAfterMs: 1200,
    });
    const blip = new AwakenError('store_failure', 'connection reset', { retryable: true });
    expect(classifyOutcome({ type: 'failed', error: blip })).toMatchObject({ action: 'retry' });
  });

  it('dead-letters any other failure and ends the run with the reason', () => {
    expect(classifyOutcome({ type: 'failed', error: new TypeError('boom') })).toEqual({
      action: 'dead_letter',
      error: 'an internal error',
      endReason: 'permanent failure: an internal error',
    });
    const conflict = new AwakenError('conflict', 'thread has a waiting run');
    expect(classifyOutcome({ type: 'failed', error: conflict })).toMatchObject({ action: 'dead_letter' });
  });

  it('acks a skipped dispatch with the stored status, and retries a deferred one at its time', () => {
    const record = { runId: 'r', status: 'waiting' } as RunRecord;
    expect(classifyOutcome({ type: 'skipped', record })).toEqual({
      action: 'ack',
      result: { runId: 'r', status: 'waiting' },
    });
    expect(classifyOutcome({ type: 'deferred', retryAt: 99, reason: 'behind r0' })).toEqual({
      action: 'retry',
      error: 'behind r0',
      retryAt: 99,
    });
  });
});
