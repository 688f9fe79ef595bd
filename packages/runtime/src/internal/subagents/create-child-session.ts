import type { RunSession } from '../session/run-session';
import type { ResolvedAgent } from '../runtime/resolve-agents';
import {
  type NewRunInput,
  type SessionPlumbing,
  buildSession,
  writeRunRecord,
} from '../activation/load-session';

/**
 * Creates a child run — its derived thread first (see `NewRunInput.freshThread`) — under a new
 * lease, and the session that executes it. Nothing is read back from a thread it just created.
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
  const { record, threadCreated } = await writeRunRecord(services, agent, { ...request, freshThread: true });
  const { fence } = await plumbing.ownership.acquire();
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
