import { type Plugin, type Tool, callInstanceKey, defineTool, toolPending } from '@awaken/contract';
import { countExecutions } from '@awaken/testing';
import { z } from 'zod';

/**
 * A ToolGate plugin that suspends every call of the named tools until a decision resumes it. Its
 * ticket ids name the call instance (`ticket_<step>:<callId>`).
 */
export function approvalPlugin(
  toolNames: readonly string[],
  responseSchema?: Record<string, unknown>,
): Plugin {
  return {
    id: 'approval',
    hooks: {
      toolGate(context) {
        if (!toolNames.includes(context.call.name) || context.resume) return undefined;
        return {
          type: 'suspend',
          suspension: {
            id: `ticket_${callInstanceKey(context)}`,
            action: 'approve',
            message: `run ${context.call.name}?`,
            parameters: context.call.arguments,
            ...(responseSchema ? { responseSchema } : {}),
          },
        };
      },
    },
  };
}

/** A counted tool that records the arguments of every execution. */
export function recordingTool(name: string) {
  const calls: Array<{ callId: string; args: unknown }> = [];
  const base: Tool = defineTool({
    name,
    description: `${name} tool`,
    parameters: z.object({}).passthrough(),
    execute: (args, context) => {
      calls.push({ callId: context.toolCallId, args });
      return { ran: name, args };
    },
  });
  const counted = countExecutions(base);
  return { tool: counted.tool, count: counted.count, calls };
}

/** A tool that suspends `times` times (each with a fresh ticket) before succeeding. */
export function askTwiceTool(times = 2) {
  return defineTool({
    name: 'ask_twice',
    description: 'needs several answers',
    parameters: z.object({}).passthrough(),
    execute: (_args, context) => {
      const round = Number((context.resume?.result as { round?: number } | undefined)?.round ?? 0);
      if (round >= times) return { answers: round };
      return toolPending({
        id: `ask_${context.toolCallId}_${round}`,
        action: 'input',
        message: `answer ${round + 1}`,
        parameters: {},
      });
    },
  });
}

/** A tool whose pending result asks for the decision to become its result. */
export const lookupTool = defineTool({
  name: 'lookup',
  description: 'asks a human for a value',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }) =>
    toolPending(
      { id: `lookup_${key}`, action: 'provide', message: `value of ${key}?`, parameters: { key } },
      'use_decision_as_tool_result',
    ),
});
