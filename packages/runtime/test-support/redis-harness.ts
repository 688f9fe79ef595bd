import { randomUUID } from 'node:crypto';
import type { AgentEvent, Message, RunRecord, ToolCallDecision, ToolMessage } from '@awaken/contract';
import { type RedisStores, createRedisStores } from '@awaken/store-redis';
import { readToolCallStates } from '@awaken/contract';
import { testKeys } from './redis-agents';
import type { RunJob } from './fork-run-worker';

// The root vitest global setup (tooling/vitest) provides the URL of its redis-server.
declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

/**
 * The test process's view of one cross-process test: Redis stores on a fresh prefix, the job
 * template for workers on that prefix, and readers for the counters and records the workers leave.
 */
export interface RedisTestBed {
  stores: RedisStores;
  runId: string;
  threadId: string;
  job(overrides: Partial<RunJob> & Pick<RunJob, 'action'>): RunJob;
  /** Tool executions of a call, counted from inside the tool body. */
  executions(toolCallId: string): Promise<number>;
  completions(toolCallId: string): Promise<number>;
  modelCalls(): Promise<number>;
  /** The message lists of every model request, in order. */
  modelRequests(): Promise<Message[][]>;
  messages(): Promise<Message[]>;
  run(): Promise<RunRecord>;
  /** Suspended tool call ids in the stored run record. */
  suspended(): Promise<string[]>;
  events(): Promise<AgentEvent[]>;
  close(): Promise<void>;
}

export function openTestBed(url: string, scenario: RunJob['scenario']): RedisTestBed {
  const prefix = `rt-int:${randomUUID()}:`;
  const stores = createRedisStores({ redis: url, prefix });
  const keys = testKeys(stores.prefix);
  const runId = `run-${randomUUID()}`;
  const threadId = `thread-${randomUUID()}`;
  const count = async (key: string) => Number((await stores.redis.get(key)) ?? 0);
  const run = async () => {
    const record = await stores.threadRuns.getRun(runId);
    if (!record) throw new Error(`run ${runId} not stored`);
    return record;
  };
  return {
    stores,
    runId,
    threadId,
    job: (overrides) => ({ url, prefix: stores.prefix, scenario, runId, threadId, ...overrides }),
    executions: (id) => count(keys.executions(runId, id)),
    completions: (id) => count(keys.completions(runId, id)),
    modelCalls: () => count(keys.modelCalls),
    async modelRequests() {
      const raw = await stores.redis.lrange(keys.requests, 0, -1);
      return raw.map((entry) => JSON.parse(entry) as Message[]);
    },
    async messages() {
      return (await stores.threadRuns.readMessages(threadId)).map((record) => record.message);
    },
    run,
    async suspended() {
      return readToolCallStates(await run())
        .filter((state) => state.status === 'suspended')
        .map((state) => state.callId);
    },
    events: () => stores.eventLog.read(runId),
    async close() {
      let cursor = '0';
      do {
        const [next, found] = await stores.redis.scan(cursor, 'MATCH', `${stores.prefix}*`, 'COUNT', 500);
        cursor = next;
        if (found.length > 0) await stores.redis.unlink(...found);
      } while (cursor !== '0');
      await stores.close();
    },
  };
}

export function approveWith(
  toolCallId: string,
  note: string,
  decisionId = `ok_${toolCallId}`,
): ToolCallDecision {
  return { toolCallId, decisionId, action: 'resume', result: { note }, updatedAt: Date.now() };
}

export function rejectWith(toolCallId: string, reason: string): ToolCallDecision {
  return {
    toolCallId,
    decisionId: `no_${toolCallId}`,
    action: 'cancel',
    result: null,
    reason,
    updatedAt: Date.now(),
  };
}

/** The tool messages of a history, keyed by call id (a duplicate result throws). */
export function toolResults(messages: readonly Message[]): Map<string, ToolMessage> {
  const results = new Map<string, ToolMessage>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    if (results.has(message.toolCallId)) throw new Error(`two results for ${message.toolCallId}`);
    results.set(message.toolCallId, message);
  }
  return results;
}

/** Splits a run's events into activations (each from `run_start` up to its `run_finish`). */
export function activations(events: readonly AgentEvent[]): AgentEvent[][] {
  const groups: AgentEvent[][] = [];
  for (const event of events) {
    if (event.type === 'run_start' || groups.length === 0) groups.push([]);
    groups.at(-1)?.push(event);
  }
  return groups;
}
