import fc from 'fast-check';
import { runRecord } from '../internal/run-record';
import { concurrentMailboxOperations } from './concurrent-operations';
import { mailboxOperation } from './mailbox-operations';
import { type Operation, advance, operation } from './operation';
import { jointOperation } from './joint-operations';
import { runOperation } from './run-operations';
import { threadOperation } from './thread-operations';

/** The shared clock moves in steps that cross lease deadlines, retry times and availableAt. */
const clockStep = fc.constantFrom(0, 1, 999, 1_000, 30_001, 60_000).map(advance);

/** Set-up steps a sequence usually starts with, so later steps find threads and runs to act on. */
const SET_UP: Operation[] = [
  operation('createThread', { id: 't0' }, (stores) => stores.threadRuns.createThread({ id: 't0' })),
  operation('createThread', { id: 't1' }, (stores) => stores.threadRuns.createThread({ id: 't1' })),
  operation('createRun', { runId: 'r0', threadId: 't0' }, (stores) =>
    stores.threadRuns.createRun(runRecord('r0', 't0')),
  ),
  operation('createRun', { runId: 'r1', threadId: 't1' }, (stores) =>
    stores.threadRuns.createRun(runRecord('r1', 't1')),
  ),
  operation('enqueue', { threadId: 't0', runId: 'r0', dispatchId: 'd0' }, (stores) =>
    stores.mailbox.enqueue({ threadId: 't0', runId: 'r0', dispatchId: 'd0', maxAttempts: 2 }),
  ),
  operation('enqueue', { threadId: 't1', runId: 'r1', dispatchId: 'd1' }, (stores) =>
    stores.mailbox.enqueue({ threadId: 't1', runId: 'r1', dispatchId: 'd1' }),
  ),
  operation('claim', { workerId: 'w0', limit: 1, leaseMs: 30_000 }, (stores) =>
    stores.mailbox.claim({ workerId: 'w0', limit: 1, leaseMs: 30_000 }),
  ),
];

const warmUp = fc.oneof(
  { weight: 3, arbitrary: fc.constant(SET_UP) },
  { weight: 1, arbitrary: fc.subarray(SET_UP) },
);

/**
 * A random sequence of store operations over the id pools: mailbox, thread/run, event log and
 * inbox operations, valid and invalid, with clock steps in between, after some set-up steps. At
 * most 30 clock steps of at most a minute, so no finished log reaches its default TTL of an hour.
 * Without `concurrent`, no step starts several mailbox calls in one tick (a backend that does not
 * apply such calls in call order: see `DifferentialHarness.callsInCallOrder`).
 */
export function operationSequenceOf(options: { concurrent: boolean }): fc.Arbitrary<Operation[]> {
  return fc
    .tuple(
      warmUp,
      fc.array(
        fc.oneof(
          { weight: 5, arbitrary: mailboxOperation },
          ...(options.concurrent ? [{ weight: 2, arbitrary: concurrentMailboxOperations }] : []),
          { weight: 3, arbitrary: threadOperation },
          { weight: 3, arbitrary: runOperation },
          { weight: 1, arbitrary: jointOperation },
          { weight: 1, arbitrary: clockStep },
        ),
        { minLength: 1, maxLength: 30, size: 'max' },
      ),
    )
    .map(([setUp, steps]) => [...setUp, ...steps]);
}

/** The sequences of {@link operationSequenceOf}, with concurrent steps. */
export const operationSequence: fc.Arbitrary<Operation[]> = operationSequenceOf({ concurrent: true });
