import type { AgentEvent } from '@awaken/contract';
import type { MailboxService } from '../../types';

/**
 * The whole run so far — every activation, as `resumeStream()` replays a response from its start —
 * then, when its last activation is still going, its live events up to that activation's end.
 * Read from the store's event log, so any process can serve any run.
 */
export async function* replayRun(
  service: MailboxService,
  runId: string,
  signal?: AbortSignal,
): AsyncGenerator<AgentEvent> {
  const past = await service.stores.eventLog.read(runId);
  yield* past;
  const lastStart = past.findLastIndex((event) => event.type === 'run_start');
  const ended = lastStart >= 0 && past.slice(lastStart).some((event) => event.type === 'run_finish');
  if (ended) return;
  yield* service.follow(runId, { afterSeq: past.at(-1)?.seq ?? 0, ...(signal ? { signal } : {}) });
}
