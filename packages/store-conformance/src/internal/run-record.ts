import type { RunRecord } from '@awaken/contract';

/**
 * A run record as a run starts: `created`, no steps, no usage, version 0, at a fixed time; `overrides`
 * on top. The ids are taken as given (the differential passes invalid ones on purpose).
 */
export function runRecord(runId: string, threadId: string, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    runId,
    threadId,
    agentId: 'agent',
    origin: 'user',
    status: 'created',
    steps: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    state: {},
    version: 0,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    ...overrides,
  };
}
