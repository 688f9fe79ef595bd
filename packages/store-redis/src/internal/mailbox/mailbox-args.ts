import type { RunDispatchResult, mailboxStoreInputs as inputs } from '@awaken/contract';

/** An enqueue input, parsed, with its dispatch id; `givenId`: chosen by the caller, not generated. */
export type ParsedEnqueue = ReturnType<typeof inputs.enqueue.parse> & {
  dispatchId: string;
  givenId: boolean;
};

/** The 8 script arguments of one enqueue (see enqueue_one in lua/mailbox/enqueue-one.ts). */
export function enqueueArgs(item: ParsedEnqueue): (string | number)[] {
  return [
    item.dispatchId,
    item.threadId,
    item.runId,
    item.priority,
    item.dedupeKey ?? '',
    item.availableAt ?? '',
    item.maxAttempts,
    item.givenId ? '1' : '',
  ];
}

/** A run result as script arguments: its runId, then stored field / value pairs ('\0': removed). */
export function resultArgs(result: RunDispatchResult): string[] {
  const absent = '\0';
  return [
    result.runId,
    'ri',
    result.dispatchInstanceId,
    'rs',
    result.status,
    'rt',
    result.termination === undefined ? absent : JSON.stringify(result.termination),
    'rr',
    result.response ?? absent,
    're',
    result.error ?? absent,
  ];
}
