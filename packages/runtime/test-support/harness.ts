import { createTestStore } from './recording-store';
import {
  type AgentEvent,
  type ModelExecutor,
  type RunControlInbox,
  type RunEventLog,
  type RunRecord,
  type ThreadRunStore,
  type ToolCallDecision,
  deriveRunStatus,
} from '@awaken/contract';
import { type ScriptedTurn, createScriptedModel } from '@awaken/testing';
import { createAgentRuntime } from '../src/create-agent-runtime';
import type { AgentDefinition, AgentRuntimeOptions, RunHandle, RunStateSnapshot } from '../src/types';
import { readToolCallStates } from '@awaken/contract';

/** A runtime over a memory store and a scripted model, recording state snapshots. */
export function createHarness(
  agent: Omit<AgentDefinition, 'id'> & { id?: string },
  options: {
    turns?: ScriptedTurn[];
    store?: ThreadRunStore;
    model?: ModelExecutor;
    eventLog?: RunEventLog;
    inbox?: RunControlInbox;
  } & Partial<Omit<AgentRuntimeOptions, 'agents' | 'stores' | 'model'>> = {},
) {
  const { turns, store: given, eventLog, inbox, ...rest } = options;
  const store = given ?? createTestStore();
  const model = options.model ?? createScriptedModel(turns ?? []);
  const snapshots: RunStateSnapshot[] = [];
  let counter = 0;
  const runtime = createAgentRuntime({
    ...rest,
    agents: [{ id: 'agent', ...agent }],
    stores: {
      threadRuns: store,
      ...(eventLog ? { eventLog } : {}),
      ...(inbox ? { inbox } : {}),
    },
    model,
    createId: options.createId ?? (() => `id_${++counter}`),
    onStateChange: (snapshot) => {
      snapshots.push(snapshot);
      options.onStateChange?.(snapshot);
    },
  });
  return { runtime, store, model, snapshots };
}

/** Reads every event of a handle. */
export async function collect(handle: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of handle) events.push(event);
  return events;
}

export function types(events: readonly AgentEvent[]): string[] {
  return events.map((event) => event.type);
}

/** Drops deltas so event order assertions stay readable. */
export function outline(events: readonly AgentEvent[]): string[] {
  return types(events).filter((type) => !type.endsWith('_delta'));
}

export function approve(
  toolCallId: string,
  result: unknown = { approved: true },
  decisionId?: string,
): ToolCallDecision {
  return { toolCallId, decisionId: decisionId ?? `d_${toolCallId}`, action: 'resume', result, updatedAt: 1 };
}

export function reject(toolCallId: string, reason = 'no', decisionId?: string): ToolCallDecision {
  return {
    toolCallId,
    decisionId: decisionId ?? `r_${toolCallId}`,
    action: 'cancel',
    result: null,
    reason,
    updatedAt: 1,
  };
}

/** Waits until `predicate` holds on the handle's run status snapshots or events (polling). */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Every snapshot obeys seed 000: a running/waiting derived status is the run status. */
export function statusAlwaysDerived(snapshots: readonly RunStateSnapshot[]): boolean {
  return snapshots.every((snapshot) => snapshot.derived === 'done' || snapshot.derived === snapshot.status);
}

/** Checks that every tool call in a message history has exactly one tool message after it. */
export function historyIsValid(
  messages: ReadonlyArray<{ role: string; toolCalls?: { id: string }[]; toolCallId?: string }>,
): boolean {
  const open = new Map<string, number>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      if (open.size > 0) return false;
      for (const call of message.toolCalls ?? []) open.set(call.id, 0);
    } else if (message.role === 'tool') {
      const seen = open.get(message.toolCallId ?? '');
      if (seen === undefined) return false;
      open.delete(message.toolCallId ?? '');
    } else if (open.size > 0) return false;
  }
  return true;
}

export async function storedRun(store: ThreadRunStore, runId: string): Promise<RunRecord> {
  const record = await store.getRun(runId);
  if (!record) throw new Error(`run ${runId} missing`);
  return record;
}

export function derivedOf(record: RunRecord) {
  return deriveRunStatus(readToolCallStates(record));
}

export type { RunHandle };
