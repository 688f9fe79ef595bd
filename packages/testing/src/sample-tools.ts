import { type Tool, defineTool, toolPending, toolSuccess } from '@awaken/contract';
import { z } from 'zod';
import { abortableSleep } from './abortable-sleep';

/** Returns its `text` argument. */
export const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes the given text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => ({ echoed: text }),
});

/** Waits `ms` milliseconds (abortable), then returns `{ waited: ms }`. */
export const slowTool = defineTool({
  name: 'slow',
  description: 'Waits for the given number of milliseconds.',
  parameters: z.object({ ms: z.number().int().nonnegative() }),
  execute: async ({ ms }, context) => {
    await abortableSleep(ms, context.signal);
    return { waited: ms };
  },
});

/** Always throws. */
export const failingTool = defineTool({
  name: 'failing',
  description: 'Always fails.',
  parameters: z.object({ reason: z.string().default('boom') }),
  execute: ({ reason }) => {
    throw new Error(reason);
  },
});

/**
 * Returns a pending result (suspends) until it is replayed with a decision; on replay it returns the
 * decision payload it was resumed with.
 */
export const pendingTool = defineTool({
  name: 'ask_human',
  description: 'Asks a human a question and returns the answer.',
  parameters: z.object({ question: z.string() }),
  execute: ({ question }, context) => {
    if (context.resume) return toolSuccess({ question, answer: context.resume.result });
    return toolPending({
      // one ticket per call instance: a later turn may reuse the tool call id
      id: `ask_${context.step}:${context.toolCallId}`,
      action: 'input',
      message: question,
      parameters: { question },
    });
  },
});

/** Wraps a tool so every execution of its body is counted per tool call id. */
export function countExecutions<T extends Tool>(tool: T): { tool: T; count(callId?: string): number } {
  const counts = new Map<string, number>();
  const wrapped = {
    ...tool,
    execute: (args: unknown, context: Parameters<T['execute']>[1]) => {
      counts.set(context.toolCallId, (counts.get(context.toolCallId) ?? 0) + 1);
      return tool.execute(args, context);
    },
  } as T;
  return {
    tool: wrapped,
    count: (callId) =>
      callId === undefined
        ? [...counts.values()].reduce((sum, value) => sum + value, 0)
        : (counts.get(callId) ?? 0),
  };
}
