import { randomUUID } from 'node:crypto';
import { type RunRecord, runCreationWithLease } from '@awaken/contract';
import type { RunSession } from '../session/run-session';
import type { ResolvedAgent } from '../runtime/resolve-agents';
import {
  type NewRunInput,
  type SessionPlumbing,
  buildSession,
  newRunRecord,
  writeRunRecord,
} from '../activation/load-session';

/**
 * Creates the run and its thread when missing, and takes the run's first lease: in one store call
 * when the store offers `createRunWithLease`, else the thread first, the run, then `acquireRun`.
 */
async function createOwned(
  plumbing: SessionPlumbing,
  agent: ResolvedAgent,
  request: NewRunInput,
): Promise<{ record: RunRecord; threadCreated: boolean; fence: number }> {
  const { services, ownership } = plumbing;
  const joint = runCreationWithLease(services.store);
  if (!joint) {
    const written = await writeRunRecord(services, agent, { ...request, freshThread: true });
    const { fence } = await ownership.acquire();
    return { ...written, fence };
  }
  const created = await joint.createRunWithLease(newRunRecord(services, agent, request), {
    owner: `awaken-runtime:${randomUUID()}`,
    leaseMs: services.lease.leaseMs,
    createThread: true,
  });
  ownership.adopt(created.lease);
  return { record: created.run, threadCreated: created.threadCreated, fence: created.lease.fence };
}

/**
 * Creates a child run — its derived thread too when missing — under its first lease, and the
 * session that executes it: one store call where the store offers `createRunWithLease`. Nothing is
 * read back from a thread it just created.
 *
 * A lease of fence 1 is the first the run ever had: no activation wrote to its event log before, so
 * the log's fence is not raised first and the run continues from seq 0 (one round trip fewer). Its
 * first append raises the log's fence to 1 (a log takes the higher fence a write presents); any
 * later activation — a re-executed parent call continuing the child — takes fence 2 or more and
 * raises it as every resumption does, which refuses every later write of this one.
 */
export async function createChildSession(
  plumbing: SessionPlumbing,
  agent: ResolvedAgent,
  request: NewRunInput,
): Promise<RunSession> {
  const { services } = plumbing;
  const { record, threadCreated, fence } = await createOwned(plumbing, agent, request);
  const log = services.eventLog;
  const owned =
    fence === 1 || !log ? { fence } : { fence, logSeq: await log.raiseFence(request.runId, fence) };
  const [messages, threadState] = threadCreated
    ? [[], {}]
    : await Promise.all([
        services.store
          .readMessages(request.threadId)
          .then((records) => records.map((entry) => entry.message)),
        services.store.getThreadState(request.threadId),
      ]);
  return buildSession(plumbing, agent, record, messages, threadState, owned);
}
