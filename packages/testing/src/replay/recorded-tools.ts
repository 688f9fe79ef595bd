import {
  type AgentEvent,
  type AgentEventOf,
  type SuspendTicket,
  type ToolCallState,
  type ToolResult,
  toolFailure,
  toolPending,
  toolSuccess,
  toolWarning,
} from '@awaken/contract';

type Outcome =
  | { kind: 'suspended'; ticket: SuspendTicket }
  | { kind: 'done'; event: AgentEventOf<'tool_call_done'> };

/**
 * Answers tool executions of a replay from the recording. Each call id has the outcomes the
 * recording shows for it, in order (`tool_call_suspended`, `tool_call_done`). When the replay
 * executes a call, its place in that list is the number of suspensions the replay has already seen
 * for it (a ToolGate suspension happens before any execution) plus the results already answered:
 * a suspension there is returned as the tool's own pending result (a client tool, a tool asking a
 * question), a done event as its recorded result.
 */
export class RecordedToolResults {
  private readonly outcomes = new Map<string, Outcome[]>();
  private readonly suspensions = new Map<string, number>();
  private readonly answered = new Map<string, number>();
  private readonly lastStatus = new Map<string, string>();
  /** Executions answered from the recording. */
  executions = 0;

  constructor(events: readonly AgentEvent[]) {
    for (const event of events) {
      if (event.type === 'tool_call_suspended')
        this.add(event.toolCallId, { kind: 'suspended', ticket: event.ticket });
      if (event.type === 'tool_call_done') this.add(event.toolCallId, { kind: 'done', event });
    }
  }

  private add(toolCallId: string, outcome: Outcome): void {
    const list = this.outcomes.get(toolCallId) ?? [];
    list.push(outcome);
    this.outcomes.set(toolCallId, list);
  }

  /** Feed every tool call state change of the replay (the runtime's `onStateChange`). */
  observe(calls: readonly ToolCallState[]): void {
    for (const call of calls) {
      const before = this.lastStatus.get(call.callId);
      if (call.status === 'suspended' && before !== 'suspended')
        this.suspensions.set(call.callId, (this.suspensions.get(call.callId) ?? 0) + 1);
      this.lastStatus.set(call.callId, call.status);
    }
  }

  /** The recorded result of executing `toolCallId` now; throws when the recording has none. */
  resultFor(toolCallId: string, toolName: string): ToolResult {
    const position = (this.suspensions.get(toolCallId) ?? 0) + (this.answered.get(toolCallId) ?? 0);
    const outcome = this.outcomes.get(toolCallId)?.[position];
    if (!outcome) {
      throw new Error(
        `the recording has no result for ${toolName} call ${toolCallId} (execution ${position + 1})`,
      );
    }
    this.executions += 1;
    if (outcome.kind === 'suspended') {
      const { ticket } = outcome;
      return toolPending(ticket.suspension, ticket.resumeMode);
    }
    this.answered.set(toolCallId, (this.answered.get(toolCallId) ?? 0) + 1);
    const result = outcome.event.result;
    if (!result) return toolFailure(`the recording has no result for ${toolName} call ${toolCallId}`);
    switch (result.status) {
      case 'success':
        return toolSuccess(result.output);
      case 'warning':
        return toolWarning(result.output, result.message);
      case 'error':
        return toolFailure(result.message, result.output);
      case 'pending':
        return toolPending(result.suspension, result.resumeMode);
    }
  }
}

type ToolLike = { execute?: (...args: any[]) => unknown } & Record<PropertyKey, unknown>;

function copyOf<T extends object>(tool: T): T {
  return Object.create(Object.getPrototypeOf(tool), Object.getOwnPropertyDescriptors(tool)) as T;
}

function stub<T>(tool: T, results: RecordedToolResults, name: string, aiSdk: boolean): T {
  if (typeof tool !== 'object' || tool === null || typeof (tool as ToolLike).execute !== 'function')
    return tool;
  const copy = copyOf(tool as ToolLike);
  copy.execute = (_args: unknown, context: { toolCallId?: string }) => {
    const result = results.resultFor(String(context?.toolCallId), name);
    if (!aiSdk) return result;
    // an AI SDK tool returns its output or throws
    if (result.status === 'error') throw new Error(result.message);
    return 'output' in result ? result.output : undefined;
  };
  return copy as T;
}

/**
 * The agent's tools with every `execute` answered from the recording: an Awaken tool returns the
 * recorded `ToolResult`; an AI SDK tool (in a record) returns the recorded output or throws the
 * recorded message. Everything else of a tool (name, schema, handoff or sub-agent markers) is kept.
 */
export function recordedTools<T>(tools: T, results: RecordedToolResults): T {
  if (Array.isArray(tools)) return tools.map((tool) => stub(tool, results, String(tool?.name), false)) as T;
  if (typeof tools !== 'object' || tools === null) return tools;
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const awaken = typeof (tool as { name?: unknown })?.name === 'string' && 'parameters' in (tool as object);
    out[name] = stub(tool, results, name, !awaken);
  }
  return out as T;
}
