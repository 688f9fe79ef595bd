import { AwakenError, type MessageRecord, readToolCallStates } from '@awaken/contract';
import { type AgUiRunEnding, openTicketsOf, toAgUiMessages } from '@awaken/protocol-ag-ui';
import type { MailboxService } from '../../types';

/** The context key a run started over AG-UI keeps the client's id of its user message under. */
export const AG_UI_CONTEXT_KEY = 'agUi';

/**
 * The thread's messages as AG-UI messages; a user message keeps the id its client gave it (stored
 * in its run's context), so the client's own copy is matched, not replaced.
 */
export async function threadMessages(
  service: MailboxService,
  threadId: string,
  skip?: (record: MessageRecord) => boolean,
) {
  const records = (await service.stores.threadRuns.readMessages(threadId)).filter(
    (record) => !skip?.(record),
  );
  const runIds = [
    ...new Set(
      records.filter((record) => record.message.role === 'user').flatMap((record) => record.runId ?? []),
    ),
  ];
  const runs = await Promise.all(runIds.map((runId) => service.stores.threadRuns.getRun(runId)));
  const clientIds = new Map<string, string>();
  for (const run of runs) {
    const stored = run?.context?.[AG_UI_CONTEXT_KEY] as { userMessageId?: unknown } | undefined;
    if (run && typeof stored?.userMessageId === 'string') clientIds.set(run.runId, stored.userMessageId);
  }
  return toAgUiMessages(records, {
    clientIdOf: (record) => (record.runId === undefined ? undefined : clientIds.get(record.runId)),
  });
}

/** How the run stands now, read from the store: what ends an AG-UI response for it. */
export async function settleRun(service: MailboxService, runId: string): Promise<AgUiRunEnding> {
  const record = await service.stores.threadRuns.getRun(runId);
  if (!record) throw new AwakenError('not_found', `run ${runId} not found`);
  return {
    status: record.status,
    ...(record.termination ? { termination: record.termination } : {}),
    tickets: record.status === 'waiting' ? openTicketsOf({ calls: readToolCallStates(record) }) : [],
    messages: () => threadMessages(service, record.threadId),
  };
}
