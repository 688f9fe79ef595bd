import type { AgentEvent } from '@awaken/contract';
import type { MailboxService } from '../../types';

/** Events read from the log at a time: a client that stops reading holds one page, not the run. */
const PAGE = 256;

/**
 * The whole run so far — every activation, as `resumeStream()` replays a response from its start —
 * then, when its last activation is still going, its live events up to that activation's end.
 * Read from the store's event log in pages, so any process can serve any run.
 */
export async function* replayRun(
  service: MailboxService,
  runId: string,
  signal?: AbortSignal,
): AsyncGenerator<AgentEvent> {
  let seq = 0;
  let started = false;
  // the last activation seen so far has finished (a `run_finish` after its `run_start`)
  let ended = false;
  for (;;) {
    const page = await service.stores.eventLog.read(runId, { afterSeq: seq, limit: PAGE });
    for (const event of page) {
      if (event.type === 'run_start') {
        started = true;
        ended = false;
      } else if (event.type === 'run_finish' && started) ended = true;
      seq = event.seq;
      yield event;
    }
    if (page.length < PAGE || signal?.aborted) break;
  }
  if (ended || signal?.aborted) return;
  yield* service.follow(runId, { afterSeq: seq, ...(signal ? { signal } : {}) });
}
