import {
  type AgentEvent,
  AwakenError,
  type RunEventLog,
  agentEventSchema,
  fenceSchema,
  parseWith,
} from '@awaken/contract';
import { clone } from './internal/clone';
import { type MemoryStoreOptions, storeClock } from './internal/clock';
import { waitForSignal } from './internal/wait-for-signal';

/** Options of {@link createMemoryRunEventLog}. */
export interface MemoryRunEventLogOptions extends MemoryStoreOptions {
  /** How long a finished run's log is kept when `finish` gets no `ttlMs` (default one hour). */
  finishedTtlMs?: number;
}

interface RunLog {
  events: AgentEvent[];
  expiresAt?: number;
  waiters: Set<() => void>;
  /** The highest run fence any write presented (0 when none did). */
  fence: number;
}

const newLog = (): RunLog => ({ events: [], waiters: new Set<() => void>(), fence: 0 });

/** Validates a write's fence and rejects one lower than the log's with `stale_claim`; returns it. */
function checkFence(runId: string, log: RunLog | undefined, fence: unknown): number {
  const given = parseWith(fenceSchema, fence ?? 0, 'fence');
  const current = log?.fence ?? 0;
  if (given < current) {
    throw new AwakenError(
      'stale_claim',
      `the event log of run ${runId} is at fence ${current}, the writer has ${given}`,
      {
        details: { runId, fence: current, given },
      },
    );
  }
  return given;
}

/**
 * A {@link RunEventLog} in process memory. Guarantees those of the contract's TSDoc: appends must
 * continue the stored seq exactly (`conflict` otherwise, nothing written) and are validated with the
 * contract's `agentEventSchema`; `tail` wakes as soon as an event is appended and returns `[]` at once
 * for a finished log with nothing newer; an append to a finished log is rejected (`conflict`). A
 * finished log is dropped `ttlMs` after `finish` on the store's clock. Writes are fenced: a fence lower
 * than the highest one the log has seen → `stale_claim`, nothing written.
 */
export function createMemoryRunEventLog(options: MemoryRunEventLogOptions = {}): RunEventLog {
  const clock = storeClock(options);
  const defaultTtlMs = options.finishedTtlMs ?? 60 * 60 * 1000;
  const logs = new Map<string, RunLog>();
  /** Finished runs, swept for expiry at most once a second so `finish` stays O(1) amortised. */
  const finished = new Set<string>();
  let lastSweep = Number.NEGATIVE_INFINITY;

  const live = (runId: string): RunLog | undefined => {
    const log = logs.get(runId);
    if (log?.expiresAt !== undefined && clock() >= log.expiresAt) {
      logs.delete(runId);
      finished.delete(runId);
      for (const wake of log.waiters) wake();
      return undefined;
    }
    return log;
  };

  const sweepExpired = () => {
    const at = clock();
    if (at - lastSweep < 1_000) return;
    lastSweep = at;
    for (const runId of [...finished]) live(runId);
  };

  const after = (log: RunLog | undefined, afterSeq: number, limit: number | undefined): AgentEvent[] => {
    if (log === undefined) return [];
    const start = Math.max(afterSeq, 0);
    const end = limit === undefined ? undefined : start + limit;
    return clone(log.events.slice(start, end));
  };

  return {
    async append(runId, events, appendOptions) {
      const fence = checkFence(runId, live(runId), appendOptions?.fence);
      if (events.length === 0) return;
      const parsed = events.map((event) => parseWith(agentEventSchema, event, 'agent event'));
      const log = live(runId) ?? newLog();
      if (log.expiresAt !== undefined)
        throw new AwakenError('conflict', `the event log of run ${runId} is finished`);
      parsed.forEach((event, index) => {
        const expected = log.events.length + index + 1;
        if (event.runId !== runId || event.seq !== expected) {
          throw new AwakenError(
            'conflict',
            `run ${runId} expects event seq ${expected}, got seq ${event.seq} of run ${event.runId}`,
            { details: { runId, expected, given: event.seq } },
          );
        }
      });
      log.events.push(...parsed);
      log.fence = fence;
      logs.set(runId, log);
      const waiters = [...log.waiters];
      log.waiters.clear();
      for (const wake of waiters) wake();
    },

    async read(runId, query) {
      return after(live(runId), query?.afterSeq ?? 0, query?.limit);
    },

    async tail(runId, query) {
      const ready = () => {
        const log = live(runId);
        const events = after(log, query.afterSeq, query.limit);
        return events.length > 0 || log?.expiresAt !== undefined ? events : undefined;
      };
      const immediate = ready();
      if (immediate !== undefined) return immediate;
      const log = logs.get(runId) ?? newLog();
      logs.set(runId, log);
      await waitForSignal({ waiters: log.waiters, waitMs: query.waitMs, signal: query.signal });
      const unused =
        log.events.length === 0 && log.waiters.size === 0 && log.expiresAt === undefined && log.fence === 0;
      if (unused && logs.get(runId) === log) logs.delete(runId);
      return ready() ?? [];
    },

    async lastSeq(runId) {
      return live(runId)?.events.length ?? 0;
    },

    async finish(runId, finishOptions) {
      const ttlMs = finishOptions?.ttlMs ?? defaultTtlMs;
      if (!Number.isFinite(ttlMs) || ttlMs < 0) {
        throw new AwakenError('validation_failed', `ttlMs must be a number >= 0, got ${ttlMs}`);
      }
      const fence = checkFence(runId, live(runId), finishOptions?.fence);
      sweepExpired();
      const log = live(runId) ?? newLog();
      log.fence = fence;
      log.expiresAt = clock() + ttlMs;
      logs.set(runId, log);
      finished.add(runId);
      const waiters = [...log.waiters];
      log.waiters.clear();
      for (const wake of waiters) wake();
    },

    async isFinished(runId) {
      return live(runId)?.expiresAt !== undefined;
    },

    async raiseFence(runId, fence) {
      if (!Number.isSafeInteger(fence) || fence < 1) {
        throw new AwakenError('validation_failed', `invalid fence: must be a positive integer, got ${fence}`);
      }
      const given = checkFence(runId, live(runId), fence);
      const log = live(runId) ?? newLog();
      log.fence = given;
      logs.set(runId, log);
      return log.events.length;
    },
  };
}
