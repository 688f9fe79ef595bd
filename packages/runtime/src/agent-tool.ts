import {
  type InferToolInput,
  type SubRunOutcome,
  type Tool,
  type ToolInputSchema,
  type ToolResult,
  type UserMessage,
  forwardDecision,
  nestQuestion,
  toolFailure,
  toolPending,
  toolSuccess,
  toolWarning,
} from '@awaken/contract';
import { z } from 'zod';
import { AGENT_TOOL_TARGET } from './internal/subagents/agent-tool-target';

const taskParameters = z.object({
  task: z.string().min(1).describe('The task for the agent, stated completely: it sees nothing else'),
});

/** What `agentTool` takes besides the agent id. */
export interface AgentToolOptions<S extends z.ZodType | ToolInputSchema = typeof taskParameters> {
  /** The tool name the model calls. Default: the agent id. */
  name?: string;
  /** What the model reads about the tool. Default: delegate a task to the agent. */
  description?: string;
  /** The call's input schema. Default `{ task: string }`. */
  parameters?: S;
  /**
   * The child's input from the call's arguments (a string is one user message). Default: the
   * `task` argument, or the arguments as JSON when there is none.
   */
  input?: (args: InferToolInput<S>) => string | UserMessage[];
  /**
   * The call's output once the child finished (not failed): default the child's final response text
   * (`''` when it has none). A child that fails, is cancelled or blocked fails the call instead.
   */
  mapResult?: (outcome: SubRunOutcome) => unknown;
}

function defaultInput(args: unknown): string {
  const task = (args as { task?: unknown } | null)?.task;
  return typeof task === 'string' ? task : JSON.stringify(args);
}

/** The parent call's result for how its child stands. */
function callResult(
  agentId: string,
  outcome: SubRunOutcome,
  mapResult: (outcome: SubRunOutcome) => unknown,
): ToolResult {
  if (outcome.status === 'waiting') {
    // one question at a time: the first open ticket; answered, the call asks the next one if any
    const ticket = outcome.waiting?.tickets[0];
    if (!ticket) return toolFailure(`the "${agentId}" agent waits for input this call cannot forward`);
    const { suspension, expiresAt } = nestQuestion(outcome, ticket);
    return toolPending(suspension, ticket.resumeMode, expiresAt === undefined ? {} : { expiresAt });
  }
  const { termination } = outcome;
  switch (termination.type) {
    case 'error':
      return toolFailure(`the "${agentId}" agent failed: ${termination.message}`);
    case 'cancelled':
      return toolFailure(
        `the "${agentId}" agent was cancelled${termination.reason ? `: ${termination.reason}` : ''}`,
      );
    case 'blocked':
      return toolFailure(`the "${agentId}" agent was blocked: ${termination.reason}`);
    case 'stopped':
      return toolWarning(mapResult(outcome), `the "${agentId}" agent stopped early (${termination.code})`);
    default:
      return toolSuccess(mapResult(outcome));
  }
}

/**
 * Another agent of the same runtime as a tool (a sub-agent). A call runs a **child run** of
 * `agentId` inline (`ToolExecuteContext.subRuns`): a normal, durable run (`origin: 'internal'`,
 * `parentRunId`, `parentCallId`, `agentPath`) on its own thread, whose id is derived from the parent
 * run and call, so a call executed again (a crash, a resume) continues its child instead of starting
 * another. The child's final answer is the call's output (see `mapResult`).
 *
 * When the child waits for a human, the call suspends with a ticket mirroring the child's first open
 * ticket (`suspension.nested`: the inner tool, its arguments and the agent path; the child ticket's
 * action, response schema, four-eyes flag and expiry; a message such as `janitor › delete_file: …`).
 * Any answer to that ticket — approve, approve with edited arguments, deny, a client tool's output, an
 * `indeterminate` answer, cancel — is forwarded to the child's ticket, judged by the child's own judge,
 * and the child resumes at the call that asked (its finished tools and model turns are not repeated);
 * if it then asks again, the call suspends again with the next question (a child's questions are
 * presented one after another; parallel children are separate calls, each with its own ticket). A
 * nested ticket expires with the child's ticket, and the child resolves its call as expired by its own
 * rules. The child runs under its ancestors' inheritable plugins (e.g. permission rules) plus its own.
 * `agentId` must be an agent of the runtime (`invalid_config` when the runtime is created otherwise).
 */
export function agentTool<S extends z.ZodType | ToolInputSchema = typeof taskParameters>(
  agentId: string,
  options: AgentToolOptions<S> = {},
): Tool<InferToolInput<S>> {
  const name = options.name ?? agentId;
  const toInput = options.input ?? defaultInput;
  const mapResult = options.mapResult ?? ((outcome: SubRunOutcome) => outcome.response ?? '');
  const tool: Tool<InferToolInput<S>> = {
    name,
    description:
      options.description ??
      `Delegate a task to the "${agentId}" agent, which works on it with its own tools and answers.`,
    parameters: (options.parameters ?? taskParameters) as Tool<InferToolInput<S>>['parameters'],
    async execute(args, context) {
      const subRuns = context.subRuns;
      if (!subRuns)
        return toolFailure(`the agent tool "${name}" runs only in the Awaken runtime (no subRuns given)`);
      const nested = context.resume ? context.ticket?.suspension.nested : undefined;
      const decisions = nested && context.resume ? [forwardDecision(context.resume, nested)] : [];
      const outcome = await subRuns.run({ agentId, input: toInput(args), decisions });
      return callResult(agentId, outcome, mapResult);
    },
  };
  // checked when the runtime is created: the agent must be one of its agents
  Object.defineProperty(tool, AGENT_TOOL_TARGET, { value: agentId, enumerable: false });
  return tool;
}
