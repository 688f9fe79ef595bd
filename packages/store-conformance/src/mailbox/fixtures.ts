import type { EnqueueDispatchInput, MailboxStore, RunDispatch } from '@awaken/contract';
import { expect } from 'vitest';
import { uniqueId } from '../internal/ids';

/** Enqueue input for a fresh thread and run unless overridden. */
export function dispatchInput(overrides: Partial<EnqueueDispatchInput> = {}): EnqueueDispatchInput {
  return { threadId: uniqueId('thread'), runId: uniqueId('run'), ...overrides };
}

/** Claims exactly the given dispatch (by id) and returns it with its token. */
export async function claimOne(
  store: MailboxStore,
  dispatch: RunDispatch,
  leaseMs: number,
  workerId = 'worker-a',
): Promise<RunDispatch & { claimToken: string }> {
  const claimed = await store.claimDispatch({ dispatchId: dispatch.dispatchId, workerId, leaseMs });
  expect(claimed?.status).toBe('claimed');
  expect(claimed?.claimToken).toEqual(expect.any(String));
  return claimed as RunDispatch & { claimToken: string };
}

/** The claim proof of a claimed dispatch. */
export function proofOf(dispatch: RunDispatch): { dispatchId: string; claimToken: string } {
  if (dispatch.claimToken === undefined)
    throw new Error(`dispatch ${dispatch.dispatchId} has no claim token`);
  return { dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken };
}
