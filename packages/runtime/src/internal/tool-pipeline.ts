import {
  type SuspendTicket,
  type ToolCall,
  type ToolCallState,
  type ToolCallStatus,
  type ToolGateDecision,
  type ToolResult,
  formatZodIssues,
  isToolResult,
  toolFailure,
  toolSuccess,
  transitionToolCall,
} from '@awaken/contract';
import { baseContext, contextFor, runHooks } from './plugin-host';
import type { RunSession } from './run-session';
import { jsonOutput, toolContent } from './tool-content';

/** Moves a call through the contract's transition table and re-derives the run status. */
export function moveCall(session: RunSession, state: ToolCallState, to: ToolCallStatus): void {
  if (state.status !== to) state.status = transitionToolCall(state.status, to);
  state.updatedAt = session.now();
  session.syncStatus();
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

/** Parses and validates arguments; returns the parsed value or a failed result naming the fields. */
function prepareArguments(
  session: RunSession,
  state: ToolCallState,
): { args: unknown } | { failure: ToolResult } {
  const tool = session.agent.tools.get(state.toolName);
  if (!tool) return { failure: toolFailure(`unknown tool "${state.toolName}"`) };
  let raw = effectiveArguments(state);
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch (error) {
      return { failure: toolFailure(`arguments are not valid JSON: ${(error as Error).message}`) };
    }
  }
  const parsed = tool.parameters.safeParse(raw);
  if (!parsed.success) {
    return { failure: toolFailure(`invalid arguments: ${formatZodIssues(parsed.error.issues)}`) };
  }
  return { args: parsed.data };
}

/** Emits the events and runs AfterToolExecute for a call that just reached a result. */
async function settleCall(session: RunSession, state: ToolCallState, result: ToolResult): Promise<void> {
  if (state.status === 'suspended' && state.ticket) {
    await session.emit({
      type: 'tool_call_suspended',
      toolCallId: state.callId,
      toolName: state.toolName,
      ticket: state.ticket,
    });
  } else if (state.status === 'succeeded' || state.status === 'failed' || state.status === 'cancelled') {
    await session.emit({
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
    batch: session.batch.map((call) => ({ ...call })),
  };
  for (const plugin of session.agent.definition.plugins ?? []) {
    const decision = await plugin.hooks.toolGate?.(contextFor(session, plugin, context));
    if (decision && decision.type !== 'allow') return decision;
  }
  return { type: 'allow' };
}

/**
 * Stage 1 for one call: argument checks and the ToolGate. Returns true when the call is allowed to
 * execute; otherwise the call has been resolved (failed, suspended, set, cancelled).
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
      if (!decision.continueRun) session.blocked = decision.reason;
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
    default: {
      const exhaustive: never = decision;
      throw new Error(`unknown gate decision ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** Stages 2 and 3 for an allowed call: BeforeToolExecute once, then the tool body. */
export async function executeCall(session: RunSession, state: ToolCallState): Promise<void> {
  const prepared = prepareArguments(session, state);
  const tool = session.agent.tools.get(state.toolName);
  if ('failure' in prepared || !tool) return;
  if (state.status !== 'running') moveCall(session, state, 'running');
  await runHooks(session, 'beforeToolExecute', hookContext(session, state, 'BeforeToolExecute'));
  const signal = session.signal;
  state.executions += 1;
  let result: ToolResult;
  try {
    const output = await tool.execute(prepared.args, {
      runId: session.runId,
      threadId: session.threadId,
      toolCallId: state.callId,
      step: state.step,
      signal,
      ...(state.resume ? { resume: state.resume } : {}),
      ...(state.ticket ? { resumeMode: state.ticket.resumeMode } : {}),
    });
    result = isToolResult(output) ? output : toolSuccess(output);
    if (result.status !== 'pending' && (result.output !== undefined || result.status === 'success')) {
      const json = jsonOutput(result.output);
      result = 'error' in json ? toolFailure(json.error) : { ...result, output: json.value };
    }
  } catch (error) {
    result = toolFailure(error instanceof Error ? error.message : String(error));
  }
  if (signal.aborted) {
    await cancelCall(session, state, session.abortMessage());
    return;
  }
  await applyResult(session, state, result);
}

/** Gate then execute: the full pipeline for one call. */
export async function processCall(session: RunSession, state: ToolCallState): Promise<void> {
  if (await gateCall(session, state)) await executeCall(session, state);
}
