import {
  AwakenError,
  type RunEventLog,
  type RunRecord,
  type RunRecordingHeader,
  RUN_RECORDING_FORMAT,
  RUN_RECORDING_VERSION,
  type ThreadRunStore,
  type UserMessage,
  recordingLine,
} from '@awaken/contract';
import { decodeRunState } from './internal/checkpoint/run-state-codec';

/** Options of {@link exportRunRecording}. */
export interface ExportRunRecordingOptions {
  /** Events read from the log per page (default 500): memory stays bounded by it. */
  pageSize?: number;
  /** The clock stamping `recordedAt` (default `Date.now`). */
  now?: () => number;
}

async function inputOf(store: ThreadRunStore, record: RunRecord): Promise<UserMessage[]> {
  if (record.inputRange) {
    const messages = await store.readMessages(record.threadId, record.inputRange);
    return messages.flatMap((entry) => (entry.message.role === 'user' ? [entry.message] : []));
  }
  // not yet activated: the input still waits in the record's state
  const pending = decodeRunState(record).bookkeeping.input;
  return pending ?? [];
}

/**
 * Exports a stored run as a recording: NDJSON lines — a header (format, version, the run's ids, its
 * agent and agent pin, input messages, context, client tools, status), then every event of its log
 * in `seq` order, then an end line with the event count (see `parseRunRecording`). Resolves once the
 * run is found (rejects `not_found` for an unknown run, before any line), then yields lines reading
 * the log a page at a time, so a long log is never held in memory whole. The log is read up to its
 * last event when each page is read: a run still executing gives the events so far.
 */
export async function exportRunRecording(
  stores: { threadRuns: ThreadRunStore; eventLog: RunEventLog },
  runId: string,
  options: ExportRunRecordingOptions = {},
): Promise<AsyncIterable<string>> {
  const record = await stores.threadRuns.getRun(runId);
  if (!record) throw new AwakenError('not_found', `run ${runId} not found`, { details: { runId } });
  const header: RunRecordingHeader = {
    type: 'recording',
    format: RUN_RECORDING_FORMAT,
    version: RUN_RECORDING_VERSION,
    runId: record.runId,
    threadId: record.threadId,
    agentId: record.agentId,
    ...(record.agentPin ? { agentPin: record.agentPin } : {}),
    input: await inputOf(stores.threadRuns, record),
    ...(record.context ? { context: record.context } : {}),
    ...(record.clientTools ? { clientTools: record.clientTools } : {}),
    status: record.status,
    ...(record.termination ? { termination: record.termination } : {}),
    recordedAt: (options.now ?? Date.now)(),
  };
  const pageSize = options.pageSize ?? 500;
  const log = stores.eventLog;
  return {
    async *[Symbol.asyncIterator]() {
      yield recordingLine(header);
      let afterSeq = 0;
      let count = 0;
      for (;;) {
        const page = await log.read(runId, { afterSeq, limit: pageSize });
        count += page.length;
        for (const event of page) yield recordingLine(event);
        if (page.length < pageSize) break;
        afterSeq = page.at(-1)?.seq ?? afterSeq;
      }
      yield recordingLine({ type: 'recording_end', events: count });
    },
  };
}
