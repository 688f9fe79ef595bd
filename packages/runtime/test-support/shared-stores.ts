import type { InferenceRequest, Tool } from '@awaken/contract';
import {
  createMemoryRunControlInbox,
  createMemoryRunEventLog,
  createMemoryThreadRunStore,
} from '@awaken/store-memory';
import { type ScriptedTurn, createControllableTool, createScriptedModel } from '@awaken/testing';
import { createAgentRuntime } from '../src/create-agent-runtime';
import type { AgentRuntime, AgentRuntimeOptions, RuntimeStores } from '../src/types';
import { approvalPlugin } from './approval';

/** Tool calls after a user message; a final answer once the last message is a tool result. */
export function callsThenAnswer(calls: Array<{ id: string; name: string; arguments?: unknown }>) {
  return (request: InferenceRequest): ScriptedTurn =>
    request.messages.at(-1)?.role === 'user'
      ? { toolCalls: calls.map((call) => ({ ...call, arguments: call.arguments ?? {} })) }
      : { text: `done after ${request.messages.filter((message) => message.role === 'tool').length}` };
}

/**
 * Memory stores shared by several runtimes, as processes share one Redis: each runtime stands for a
 * process. `danger` is approval-gated and controlled by the test (it blocks until released).
 */
export function createSharedStores(options: { clock?: () => number } = {}) {
  const now = options.clock ?? Date.now;
  const store = createMemoryThreadRunStore({ now });
  const eventLog = createMemoryRunEventLog({ now });
  const inbox = createMemoryRunControlInbox();
  const danger = createControllableTool('danger');
  const runtime = (
    extra: Partial<Omit<AgentRuntimeOptions, 'stores'>> & {
      /** Replaces some of the shared stores (`undefined` leaves one out). */
      stores?: Partial<RuntimeStores>;
      tools?: Tool[];
      calls?: Parameters<typeof callsThenAnswer>[0];
    } = {},
  ): AgentRuntime => {
    const { tools, calls, stores, ...rest } = extra;
    return createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel(callsThenAnswer(calls ?? [{ id: 'a', name: 'danger' }])),
          tools: tools ?? [danger.tool],
          plugins: [approvalPlugin(['danger'])],
        },
      ],
      stores: { threadRuns: store, eventLog, inbox, ...stores },
      ...rest,
    });
  };
  return { store, eventLog, inbox, danger, runtime };
}
