import {
  type AgentEvent,
  AwakenError,
  DEFAULT_FINISHED_LOG_TTL_MS,
  type RunEventLog,
  jsonCopy,
  offerTrustedView,
  runEventLogInputs,
  trustedStoreInputs,
} from '@awaken/contract';
import { clone } from './internal/clone';
import { type MemoryStoreOptions, storeClock } from './internal/clock';
import { type MemoryLogWrites, withMemoryLogWrites } from './internal/memory-log-writes';
import { waitForSignal } from './internal/wait-for-signal';

/** Options of {@link createMemoryRunEventLog}. */
export interface MemoryRunEventLogOptions extends MemoryStoreOptions {
  /** How long a finished run's log is kept when `finish` gets no `ttlMs` (default one hour). */
  finishedTtlMs?: number;
  /** Called by `finish` with the time the run's log expires, so other per-run data can expire with it. */
  onFinish?: (runId: string, expiresAt: number) => void;
}

interface RunLog {
  events: AgentEvent[];
  expiresAt?: number;
  waiters: Set<() => void>;
  /** The highest run fence any write presented (0 when none did). */
  fence: number;
}

const newLog = (): RunLog => ({ events: [], waiters: new Set<() => void>(), fence: 0 });

/** Rejects a (validated) write fence lower than the log's with `stale_claim`; returns it. */
function checkFence(runId: string, log: RunLog | undefined, fence: number | undefined): number {
  const given = fence ?? 0;
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
 * continue the stored seq exactly (`conflict` otherwise, nothing written) and are validated (and
 * copied in their JSON form) by the contract's `runEventLogInputs`; `tail` wakes as soon as an event is appended and returns `[]` at once
 * for a finished log with nothing newer; an append to a finished log is rejected (`conflict`). A
 * finished log is dropped `ttlMs` after `finish` on the store's clock. Writes are fenced: a fence lower
 * than the highest one the log has seen → `stale_claim`, nothing written.
 */
export function createMemoryRunEventLog(options: MemoryRunEventLogOptions = {}): RunEventLog {
  const clock = storeClock(options);
  const defaultTtlMs = options.finishedTtlMs ?? DEFAULT_FINISHED_LOG_TTL_MS;
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

  /** The checks of an append (parsed); returns the log to write and the fence. */
  const checkAppend = (runId: string, parsed: readonly AgentEvent[], given: number | undefined) => {
    const fence = checkFence(runId, live(runId), given);
    if (parsed.length === 0) return undefined;
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
    return { log, fence };
  };

  const appendNow = (runId: string, parsed: readonly AgentEvent[], given: number | undefined) => {
    const checked = checkAppend(runId, parsed, given);
    if (checked === undefined) return;
    const { log, fence } = checked;
    for (const event of parsed) log.events.push(event);
    log.fence = fence;
    logs.set(runId, log);
    const waiters = [...log.waiters];
    log.waiters.clear();
    for (const wake of waiters) wake();
  };

  const finishNow = (runId: string, given: number | undefined, ttlMs: number = defaultTtlMs) => {
    const fence = checkFence(runId, live(runId), given);
    sweepExpired();
    const log = live(runId) ?? newLog();
    log.fence = fence;
    // Whole milliseconds, as the Redis log rounds its expiry up.
    log.expiresAt = clock() + Math.ceil(ttlMs);
    logs.set(runId, log);
    finished.add(runId);
    options.onFinish?.(runId, log.expiresAt);
    const waiters = [...log.waiters];
    log.waiters.clear();
    for (const wake of waiters) wake();
  };

  /** Raises the fence of `runId`'s log (refused as `stale_claim` below it); its last seq. */
  const raiseFenceNow = (runId: string, fence: number): number => {
    const given = checkFence(runId, live(runId), fence);
    const log = live(runId) ?? newLog();
    log.fence = given;
    logs.set(runId, log);
    return log.events.length;
  };

  const writes: MemoryLogWrites = {
    check: (runId, events, fence) => void checkAppend(runId, events, fence),
    append: appendNow,
    finish: finishNow,
    checkFence: (runId, fence) => void checkFence(runId, live(runId), fence),
    raiseFence: raiseFenceNow,
  };

  const build = (inputs: typeof runEventLogInputs): RunEventLog => ({
    async append(input, given, appendOptions) {
      const {
        runId,
        events: parsed,
        ...write
      } = inputs.append.parse({
        runId: input,
        events: given,
        fence: appendOptions?.fence,
      });
      appendNow(runId, parsed, write.fence);
    },

    async read(input, query) {
      const parsed = inputs.read.parse({ runId: input, afterSeq: query?.afterSeq, limit: query?.limit });
      return after(live(parsed.runId), parsed.afterSeq ?? 0, parsed.limit);
    },

    async tail(input, given) {
      const { runId, ...query } = inputs.tail.parse({ ...given, runId: input });
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

    async lastSeq(input) {
      return live(inputs.lastSeq.parse({ runId: input }).runId)?.events.length ?? 0;
    },

    async finish(input, finishOptions) {
      const {
        runId,
        ttlMs = defaultTtlMs,
        ...write
      } = inputs.finish.parse({ runId: input, ttlMs: finishOptions?.ttlMs, fence: finishOptions?.fence });
      finishNow(runId, write.fence, ttlMs);
    },

    async isFinished(input) {
      return live(inputs.isFinished.parse({ runId: input }).runId)?.expiresAt !== undefined;
    },

    async raiseFence(input, fence) {
      const { runId, ...write } = inputs.raiseFence.parse({ runId: input, fence });
      return raiseFenceNow(runId, write.fence);
    },
  });
  const register = (log: RunEventLog): RunEventLog => withMemoryLogWrites(log, writes);
  return offerTrustedView(
    register(build(runEventLogInputs)),
    register(build(trustedStoreInputs(runEventLogInputs, jsonCopy))),
  );
}
