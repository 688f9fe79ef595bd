import { AwakenError, type RunRecord, canTransitionRunStatus } from '@awaken/contract';
import { conflict } from './errors';
import { staleRunClaim } from './run-lease';

/** `stale_append` unless the thread has the message count the writer saw. */
export function expectLength(threadId: string, actual: number, expected: number): void {
  if (actual !== expected) {
    throw new AwakenError(
      'stale_append',
      `thread ${threadId} has ${actual} messages, the writer expected ${expected}`,
      {
        details: { threadId, actual, expected },
      },
    );
  }
}

/**
 * The checks of a checkpoint against the stored run, in the contract's order after "thread known" and
 * "run known": fence, the run's own thread, version, message count, status move.
 */
export function checkCheckpoint(input: {
  run: RunRecord;
  threadId: string;
  fence: number | undefined;
  expectedMessageCount: number;
  stored: RunRecord;
  storedFence: number;
  messageCount: number;
}): void {
  const { run, stored } = input;
  const given = input.fence ?? 0;
  if (given !== input.storedFence) {
    throw staleRunClaim(
      run.runId,
      `the checkpoint carries fence ${given}, the run is at fence ${input.storedFence}`,
    );
  }
  if (stored.threadId !== input.threadId) {
    throw conflict(`run ${run.runId} belongs to thread ${stored.threadId}, not ${input.threadId}`, {
      runId: run.runId,
      threadId: stored.threadId,
    });
  }
  if (run.version !== stored.version + 1) {
    throw new AwakenError(
      'stale_version',
      `run ${run.runId} is at version ${stored.version}; a checkpoint must carry version ${stored.version + 1}, got ${run.version}`,
      { details: { runId: run.runId, stored: stored.version, given: run.version } },
    );
  }
  expectLength(input.threadId, input.messageCount, input.expectedMessageCount);
  if (!canTransitionRunStatus(stored.status, run.status)) {
    throw new AwakenError(
      'invalid_transition',
      `RunStatus: illegal transition ${stored.status} -> ${run.status}`,
      {
        details: { machine: 'RunStatus', from: stored.status, to: run.status },
      },
    );
  }
}
