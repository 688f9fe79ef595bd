import {
  CLIENT_TOOL_ACTION,
  type SuspendTicket,
  type Suspension,
  type Tool,
  type ToolCall,
  type ToolCallState,
  type ToolCallStatus,
  type ToolGateDecision,
  type ToolResult,
  assertNever,
  callInstanceKey,
  findJsonIssue,
  formatJsonIssue,
  formatZodIssues,
  isToolResult,
  toolFailure,
  toolSuccess,
  transitionToolCall,
  validateJsonSchema,
} from '@awaken/contract';
import { baseContext, contextFor, runHooks } from './plugin-host';
import type { StoredClientTool } from './run-request';
import type { RunSession } from './run-session';
import { syncRunStatus } from './tool-batch';
import { jsonOutput, toolContent } from './tool-content';

/** Moves a call through the contract's transition table and re-derives the run status. */
export function moveCall(session: RunSession, state: ToolCallState, to: ToolCallStatus): void {
  if (state.status !== to) state.status = transitionToolCall(state.status, to);
  state.updatedAt = session.now();
  syncRunStatus(session);
}

/**
 * The arguments the tool receives: the decision payload in `pass_decision_to_tool` mode, else the
 * arguments a human edited when approving, else the model's.
 */
function effectiveArguments(state: ToolCallState): unknown {
  if (state.resume && state.ticket?.resumeMode === 'pass_decision_to_tool') return state.resume.result;
  return state.editedArguments !== undefined ? state.editedArguments : state.arguments;
}

function callOf(state: ToolCallState): ToolCall {
  return { id: state.callId, name: state.toolName, arguments: effectiveArguments(state) };
}

function hookContext(session: RunSession, state: ToolCallState, phase: 'ToolGate' | 'BeforeToolExecute') {
  return {
    ...baseContext(session, phase),
    step: state.step,
    call: callOf(state),
    ...(state.resume ? { resume: state.resume } : {}),
    ...(state.ticket ? { ticket: state.ticket } : {}),
  };
}

/**
 * Parses and validates arguments against the called tool: a server tool's zod schema or a client
 * tool's JSON Schema. Returns the parsed value, a failed result naming the fields, or `unknown` for a
 * tool neither the agent nor the request declares (decided after ToolGate: a plugin may handle it).
 */
function prepareArguments(
  session: RunSession,
  state: ToolCallState,
): { args: unknown } | { failure: ToolResult } | { unknown: true } {
  const tool = session.agent.tools.get(state.toolName);
  const clientTool = session.run.clientTools.get(state.toolName);
  const check = tool
    ? (raw: unknown) => checkServerArguments(tool, raw)
    : clientTool
      ? (raw: unknown) => checkClientArguments(clientTool, raw)
      : undefined;
  if (!check) return { unknown: true };
  let raw = effectiveArguments(state);
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch (error) {
      return { failure: toolFailure(`arguments are not valid JSON: ${(error as Error).message}`) };
    }
  }
  const issue = findJsonIssue(raw);
  if (issue) return { failure: toolFailure(`arguments cannot be used: ${formatJsonIssue(issue)}`) };
  return check(raw);
}

function checkServerArguments(tool: Tool, raw: unknown): { args: unknown } | { failure: ToolResult } {
  const parsed = tool.parameters.safeParse(raw);
  if (!parsed.success) {
    return { failure: toolFailure(`invalid arguments: ${formatZodIssues(parsed.error.issues)}`) };
  }
  return { args: parsed.data };
}

/** A client tool's arguments are checked with the contract's JSON Schema validator. */
function checkClientArguments(
  tool: StoredClientTool,
  raw: unknown,
): { args: unknown } | { failure: ToolResult } {
  const issues = validateJsonSchema(tool.parameters, raw);
  if (issues.length === 0) return { args: raw };
  const detail = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return { failure: toolFailure(`invalid arguments: ${detail}`) };
}

/** The ticket of a call to a client tool: the client runs it and its output becomes the result. */
function clientToolSuspension(state: ToolCallState, args: unknown): Suspension {
  return {
    id: `${CLIENT_TOOL_ACTION}:${callInstanceKey({ step: state.step, call: { id: state.callId } })}`,
    action: CLIENT_TOOL_ACTION,
    message: `run client tool "${state.toolName}"`,
    parameters: { toolName: state.toolName, arguments: args },
  };
}

/** Emits the events and runs AfterToolExecute for a call that just reached a result. */
export async function settleCall(
  session: RunSession,
  state: ToolCallState,
  result: ToolResult,
): Promise<void> {
  if (state.status === 'suspended' && state.ticket) {
    await session.events.emit({
      type: 'tool_call_suspended',
      toolCallId: state.callId,
      toolName: state.toolName,
      ticket: state.ticket,
    });
  } else if (state.status === 'succeeded' || state.status === 'failed' || state.status === 'cancelled') {
    await session.events.emit({
      type: 'tool_call_done',
      toolCallId: state.callId,
      toolName: state.toolName,
      status: state.status,
      result,
      content: toolContent(result, state.status === 'cancelled' ? cancelReason(state, result) : undefined),
    });
  }
  await runHooks(session, 'afterToolExecute', {
    ...hookContext(session, state, 'BeforeToolExecute'),
    phase: 'AfterToolExecute',
    result,
    status: state.status,
  });
}

function cancelReason(state: ToolCallState, result: ToolResult): string {
  if (state.resume?.action === 'cancel') return state.resume.reason ?? 'cancelled by decision';
  return result.status === 'error' ? result.message : 'cancelled';
}

/** Applies a result: success/warning → succeeded, error → failed, pending → suspended with a ticket. */
export async function applyResult(
  session: RunSession,
  state: ToolCallState,
  result: ToolResult,
): Promise<void> {
  if (result.status === 'pending') {
    const ticket: SuspendTicket = {
      suspension: result.suspension,
      pending: { id: state.callId, name: state.toolName, arguments: state.arguments },
      resumeMode: result.resumeMode ?? 'replay_tool_call',
    };
    state.ticket = ticket;
    state.result = undefined;
    moveCall(session, state, 'suspended');
  } else {
    state.result = result;
    moveCall(session, state, result.status === 'error' ? 'failed' : 'succeeded');
  }
  await settleCall(session, state, result);
}

/** Marks a call cancelled (through `running` for a call that never started) with `reason`. */
export async function cancelCall(session: RunSession, state: ToolCallState, reason: string): Promise<void> {
  if (state.status === 'new') moveCall(session, state, 'running');
  const result = toolFailure(reason);
  state.result = result;
  moveCall(session, state, 'cancelled');
  await settleCall(session, state, result);
}

/** Leaves `new`/`resuming` for `running` before a gate outcome that is not a suspension. */
function enterRunning(session: RunSession, state: ToolCallState): void {
  if (state.status === 'new') moveCall(session, state, 'running');
}

/** The first non-allow ToolGate decision across plugins (pure judgement), or allow. */
async function judge(session: RunSession, state: ToolCallState): Promise<ToolGateDecision> {
  const context = {
    ...hookContext(session, state, 'ToolGate'),
    batch: session.batch.calls.map((call) => ({ ...call })),
  };
  for (const plugin of session.agent.definition.plugins ?? []) {
    const decision = await plugin.hooks.toolGate?.(contextFor(session, plugin, context));
    if (decision && decision.type !== 'allow') return decision;
  }
  return { type: 'allow' };
}

/**
 * Stage 1 for one call: argument checks, the ToolGate, then the unknown-tool check (after the gate,
 * so a plugin can suspend a call to a tool the server does not have) and, for a client tool, its
 * suspension. Returns true when the call is allowed to execute here; otherwise the call has been
 * resolved (failed, suspended, set, cancelled).
 */
export async function gateCall(session: RunSession, state: ToolCallState): Promise<boolean> {
  if (state.resume && state.ticket?.resumeMode === 'use_decision_as_tool_result') {
    await applyResult(session, state, toolSuccess(state.resume.result));
    return false;
  }
  const prepared = prepareArguments(session, state);
  if ('failure' in prepared) {
    enterRunning(session, state);
    await applyResult(session, state, prepared.failure);
    return false;
  }
  const decision = await judge(session, state);
  switch (decision.type) {
    case 'allow':
      if ('unknown' in prepared) {
        enterRunning(session, state);
        await applyResult(session, state, toolFailure(`unknown tool "${state.toolName}"`));
        return false;
      }
      if (session.run.clientTools.has(state.toolName)) {
        await applyResult(session, state, {
          status: 'pending',
          suspension: clientToolSuspension(state, prepared.args),
          resumeMode: 'use_decision_as_tool_result',
        });
        return false;
      }
      return true;
    case 'suspend':
      await applyResult(session, state, {
        status: 'pending',
        suspension: decision.suspension,
        ...(decision.resumeMode ? { resumeMode: decision.resumeMode } : {}),
      });
      return false;
    case 'block':
      enterRunning(session, state);
      if (!decision.continueRun) session.batch.blocked = decision.reason;
      await applyResult(session, state, toolFailure(`blocked: ${decision.reason}`));
      return false;
    case 'set_result':
      enterRunning(session, state);
      await applyResult(session, state, decision.result);
      return false;
    case 'cancel':
      enterRunning(session, state);
      await cancelCall(session, state, decision.reason);
      return false;
    default:
      return assertNever(decision, 'ToolGate decision');
  }
}

/** Stages 2 and 3 for an allowed call: BeforeToolExecute once, then the tool body. */
export async function executeCall(session: RunSession, state: ToolCallState): Promise<void> {
  const prepared = prepareArguments(session, state);
  const tool = session.agent.tools.get(state.toolName);
  if (!('args' in prepared) || !tool) return;
  if (state.status !== 'running') moveCall(session, state, 'running');
  await runHooks(session, 'beforeToolExecute', hookContext(session, state, 'BeforeToolExecute'));
  const signal = session.activation.signal;
  state.executions += 1;
  let result: ToolResult;
  let threw = false;
  try {
    const output = await tool.execute(prepared.args, {
      runId: session.runId,
      threadId: session.threadId,
      toolCallId: state.callId,
      step: state.step,
      signal,
      runContext: session.run.context,
      ...(state.resume ? { resume: state.resume } : {}),
      ...(state.ticket ? { resumeMode: state.ticket.resumeMode } : {}),
    });
    result = isToolResult(output) ? output : toolSuccess(output);
    if (result.status !== 'pending' && (result.output !== undefined || result.status === 'success')) {
      const json = jsonOutput(result.output);
      result = 'error' in json ? toolFailure(json.error) : { ...result, output: json.value };
    }
  } catch (error) {
    threw = true;
    result = toolFailure(error instanceof Error ? error.message : String(error));
  }
  // a body that gave up on the abort is cancelled; one that returned did its work, so its result
  // stands (recording it `cancelled` would tell the model a side effect did not happen)
  if (signal.aborted && threw) {
    await cancelCall(session, state, session.activation.abortMessage());
    return;
  }
  await applyResult(session, state, result);
}

/** Gate then execute: the full pipeline for one call. */
export async function processCall(session: RunSession, state: ToolCallState): Promise<void> {
  if (await gateCall(session, state)) await executeCall(session, state);
}
