import { AwakenError, MAX_HANDOFF_REASON_LENGTH, type Tool, defineTool } from '@awaken/contract';
import { z } from 'zod';

const HANDOFF_MARKER = Symbol.for('awaken.handoff-tool');

/** What `handoffTool` takes besides the target agent. */
export interface HandoffToolOptions {
  /** The tool name the model calls (default `transfer_to_<agentId>`, other characters than `[A-Za-z0-9_-]` as `_`). */
  name?: string;
  /** What the model reads about the tool (default: a sentence naming the target agent). */
  description?: string;
}

/** The arguments of a handoff call: an optional reason, kept in the run record and the event. */
const handoffArgumentsSchema = z.object({
  reason: z
    .string()
    .max(MAX_HANDOFF_REASON_LENGTH)
    .optional()
    .describe('Why the conversation is transferred (one sentence, optional)'),
});

/** What the model reads when a handoff call succeeds. */
export function handoffOutput(agentId: string): { transferredTo: string; message: string } {
  return {
    transferredTo: agentId,
    message: `Transferred to agent "${agentId}": it continues this conversation from the next step.`,
  };
}

function defaultName(agentId: string): string {
  return `transfer_to_${agentId}`.replace(/[^\w-]/g, '_').slice(0, 64);
}

/**
 * A tool that transfers the rest of the run to agent `agentId` (another agent of the same runtime).
 * When the model calls it, the call succeeds at once (the model reads that the run was transferred)
 * and, at the end of the current step, the run continues with the target agent on the same run and
 * thread: its system prompt, model, tools, plugins, stop conditions and tool executor, from the next
 * step on, for every later activation of the run (resume after a suspension, a crash, a decision).
 *
 * Guarantees, as the runtime's tests check them:
 * - the other calls of the same step still run under the current agent (its tools and plugins);
 * - only the first handoff call of a step that runs takes effect; any later one of that step fails
 *   with a message naming the agent the run was already handed to;
 * - the handoff is recorded on the run record (`activeAgentId`, `handoffs`) and as a `handoff` event
 *   right after the step's `step_end`; `agentId` stays the agent that started the run;
 * - a transfer, not a child run: nothing of the current agent is inherited — the target's own
 *   permission rules and plugins judge its calls, and the run-scoped plugin state starts afresh
 *   (thread-scoped state is the thread's and stays);
 * - a target the runtime does not know, or the agent itself, is `invalid_config` when the runtime is
 *   created.
 *
 * A call resolved without running the tool (a ToolGate `set_result`, a denial, an expired ticket)
 * transfers nothing. The tool may be shared by several agents.
 */
export function handoffTool(agentId: string, options: HandoffToolOptions = {}): Tool {
  if (typeof agentId !== 'string' || agentId.length === 0) {
    throw new AwakenError('invalid_config', 'handoffTool needs the id of the agent to transfer to');
  }
  const tool = defineTool({
    name: options.name ?? defaultName(agentId),
    description:
      options.description ??
      `Transfer the conversation to agent "${agentId}", which continues it with its own instructions and tools. Call it alone, when the request is for "${agentId}".`,
    parameters: handoffArgumentsSchema,
    // the runtime executes a handoff itself; this body only answers a caller outside the runtime
    execute: () => handoffOutput(agentId),
  });
  // enumerable, so a spread copy (`{ ...handoffTool('x'), description }`) still hands off
  return Object.assign(tool, { [HANDOFF_MARKER]: { agentId } });
}

/** The agent a tool made by {@link handoffTool} transfers to; undefined for any other tool. */
export function handoffTargetOf(tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const marker = (tool as { [HANDOFF_MARKER]?: { agentId?: unknown } })[HANDOFF_MARKER];
  return typeof marker?.agentId === 'string' ? marker.agentId : undefined;
}
