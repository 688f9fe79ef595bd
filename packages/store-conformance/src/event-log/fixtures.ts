import type { AgentEvent } from '@awaken/contract';

/** `count` text-delta events of `runId` with seq `fromSeq`, `fromSeq + 1`, … */
export function textEvents(runId: string, fromSeq: number, count: number): AgentEvent[] {
  return Array.from({ length: count }, (_, index) => ({
    type: 'text_delta' as const,
    runId,
    seq: fromSeq + index,
    at: 1_700_000_000_000 + fromSeq + index,
    messageId: 'm1',
    delta: `chunk ${fromSeq + index}`,
  }));
}

export const seqs = (events: readonly AgentEvent[]): number[] => events.map((event) => event.seq);
