import { type Tool, defineTool } from '@awaken/contract';
import { z } from 'zod';
import { type Deferred, createDeferred } from './deferred';

/**
 * A tool whose executions block until the test releases them, for reproducing timelines.
 * `started(callId)` resolves once that call's body began; `release(callId, output)` finishes it.
 */
export interface ControllableTool {
  tool: Tool;
  started(callId: string): Promise<void>;
  release(callId: string, output?: unknown): void;
  fail(callId: string, message: string): void;
  executions(callId: string): number;
}

interface Gate {
  started: Deferred<void>;
  finished: Deferred<unknown>;
}

export function createControllableTool(name = 'controlled'): ControllableTool {
  const gates = new Map<string, Gate>();
  const counts = new Map<string, number>();
  const gate = (callId: string): Gate => {
    let found = gates.get(callId);
    if (!found) {
      found = { started: createDeferred<void>(), finished: createDeferred<unknown>() };
      gates.set(callId, found);
    }
    return found;
  };
  const tool = defineTool({
    name,
    description: 'A tool the test controls.',
    parameters: z.object({}).passthrough(),
    execute: async (_args, context) => {
      counts.set(context.toolCallId, (counts.get(context.toolCallId) ?? 0) + 1);
      const current = gate(context.toolCallId);
      current.started.resolve();
      const onAbort = () => current.finished.reject(context.signal.reason);
      context.signal.addEventListener('abort', onAbort, { once: true });
      try {
        return await current.finished.promise;
      } finally {
        context.signal.removeEventListener('abort', onAbort);
        gates.delete(context.toolCallId);
      }
    },
  });
  return {
    tool,
    started: (callId) => gate(callId).started.promise,
    release: (callId, output = { ok: true }) => gate(callId).finished.resolve(output),
    fail: (callId, message) => gate(callId).finished.reject(new Error(message)),
    executions: (callId) => counts.get(callId) ?? 0,
  };
}
