import {
  type Plugin,
  type ToolCallState,
  type ToolGateContext,
  type ToolGateDecision,
  type ToolResult,
  assertNever,
  isToolResult,
  toolFailure,
  toolSuccess,
} from '@awaken/contract';
import { applyResult, cancelCall } from './call-outcome';
import { baseContext, contextFor, runHooks } from '../plugins/plugin-host';
import type { RunSession } from '../session/run-session';
import { callFields, clientToolSuspension, prepareArguments } from './prepare-arguments';
import { moveCall } from './move-call';
import { jsonOutput } from './json-output';
import { commitCheckpoint } from '../checkpoint/commit-checkpoint';
import { agentPathOf, createSubRuns } from '../subagents/create-sub-runs';
import { handoffResult } from '../handoff/hand-off';

/** Leaves `new`/`resuming` for `running` before a gate outcome that is not a suspension. */
function enterRunning(session: RunSession, state: ToolCallState): void {
  if (state.status === 'new') moveCall(session, state, 'running');
}

const ALLOW: ToolGateDecision = Object.freeze({ type: 'allow' });

/** How strict a gate decision is, for combining the levels of inherited plugins (higher wins). */
const STRICTNESS: Record<ToolGateDecision['type'], number> = {
  allow: 0,
  set_result: 1,
  suspend: 2,
  cancel: 3,
  block: 4,
};

/** The first non-allow decision of one level of plugins, or allow. */
async function judgeLevel(
  session: RunSession,
  plugins: readonly Plugin[],
  context: ToolGateContext,
): Promise<ToolGateDecision> {
  for (const plugin of plugins) {
    const decision = await plugin.hooks.toolGate?.(contextFor(session, plugin, context));
    if (decision && decision.type !== 'allow') return decision;
  }
  return ALLOW;
}

/**
 * The ToolGate judgement of one call (pure): the first non-allow decision across the agent's
 * plugins, or allow. In a child run under inherited plugins each level (an ancestor's, then the
 * agent's own) judges so, and the strictest level wins (the topmost among equals): a child tightens
 * its parent's rules, never loosens them.
 */
async function judge(
  session: RunSession,
  state: ToolCallState,
  prepared: { args: unknown } | { unknown: true },
): Promise<ToolGateDecision> {
  const plugins = session.agent.definition.plugins;
  // without a gate nothing can say other than allow: no context (nor copy of the batch) is built
  if (plugins === undefined || !plugins.some((plugin) => plugin.hooks.toolGate !== undefined)) {
    return ALLOW;
  }
  const fields = callFields(state);
  const context: ToolGateContext = {
    ...baseContext(session, 'ToolGate'),
    ...fields,
    // the arguments the tool receives: parsed by its schema (which may trim, coerce or default them)
    ...('args' in prepared ? { call: { ...fields.call, arguments: prepared.args } } : {}),
    batch: session.batch.calls.map((call) => ({ ...call })),
  };
  const levels = session.agent.pluginLevels;
  if (levels === undefined) return judgeLevel(session, plugins, context);
  let strictest = ALLOW;
  for (const level of levels) {
    const decision = await judgeLevel(session, level, context);
    if (STRICTNESS[decision.type] > STRICTNESS[strictest.type]) strictest = decision;
  }
  return strictest;
}

/**
 * Stage 1 for one call: argument checks, the ToolGate, then the unknown-tool check (after the gate,
 * so a plugin can suspend a call to a tool the server does not have) and, for a client tool, its
 * suspension. Returns true when the call is allowed to execute here; otherwise the call has been
 * resolved (failed, suspended, set, cancelled).
 */
export async function gateCall(session: RunSession, state: ToolCallState): Promise<boolean> {
  if (
    state.resume &&
    state.ticket?.resumeMode === 'use_decision_as_tool_result' &&
    !state.ticket.suspension.nested
  ) {
    await applyResult(session, state, toolSuccess(state.resume.result));
    return false;
  }
  const prepared = await prepareArguments(session, state);
  if ('failure' in prepared) {
    enterRunning(session, state);
    await applyResult(session, state, prepared.failure);
    return false;
  }
  const decision = await judge(session, state, prepared);
  switch (decision.type) {
    case 'allow':
      if ('unknown' in prepared) {
        enterRunning(session, state);
        await applyResult(session, state, toolFailure(`unknown tool "${state.toolName}"`));
        return false;
      }
      // the agent's own tool wins over a client tool of the request (after a handoff, its target's)
      if (session.run.clientTools.has(state.toolName) && !session.agent.tools.has(state.toolName)) {
        await applyResult(session, state, {
          status: 'pending',
          suspension: clientToolSuspension(state, prepared.args),
          resumeMode: 'use_decision_as_tool_result',
        });
        return false;
      }
      return true;
    case 'suspend':
      await applyResult(
        session,
        state,
        {
          status: 'pending',
          suspension: decision.suspension,
          ...(decision.resumeMode ? { resumeMode: decision.resumeMode } : {}),
        },
        { approvalTimeout: decision.approvalTimeout },
      );
      return false;
    case 'block':
      enterRunning(session, state);
      if (!decision.continueRun) session.batch.blocked = decision.reason;
      await applyResult(session, state, toolFailure(`blocked: ${decision.reason}`));
      return false;
    case 'set_result':
      enterRunning(session, state);
      await applyResult(session, state, checkedOutput(decision.result));
      return false;
    case 'cancel':
      enterRunning(session, state);
      await cancelCall(session, state, decision.reason);
      return false;
    default:
      return assertNever(decision, 'ToolGate decision');
  }
}

/**
 * A result's output in its JSON form, or a failure naming what JSON cannot hold (a tool's output or a
 * gate's `set_result`: the stores' trusted path checks nothing after this).
 */
function checkedOutput(result: ToolResult): ToolResult {
  if (result.status === 'pending' || (result.output === undefined && result.status !== 'success'))
    return result;
  const json = jsonOutput(result.output);
  return 'error' in json ? toolFailure(json.error) : { ...result, output: json.value };
}

/** Stages 2 and 3 for an allowed call: BeforeToolExecute once, then the tool body. */
export async function executeCall(session: RunSession, state: ToolCallState): Promise<void> {
  const prepared = await prepareArguments(session, state);
  const tool = session.agent.tools.get(state.toolName);
  if (!('args' in prepared) || !tool) return;
  if (state.status !== 'running') moveCall(session, state, 'running');
  await runHooks(session, 'beforeToolExecute', callFields(state));
  const signal = session.activation.signal;
  const children = session.services.children;
  state.executions += 1;
  // a tool that must never run twice: that it started is stored before its body runs, so a process
  // dying inside it leaves a `running` call with no result, which the next activation asks about
  if (!tool.idempotent) await commitCheckpoint(session, 'tool_results_committed', { midRound: true });
  let result: ToolResult;
  let threw = false;
  try {
    // a handoff is executed by the runtime: no await between its check and its result (see handoffResult)
    const output = tool.handoff
      ? handoffResult(session, state, tool.handoff.agentId)
      : await tool.execute(prepared.args, {
          runId: session.runId,
          threadId: session.threadId,
          toolCallId: state.callId,
          step: state.step,
          signal,
          runContext: session.run.context,
          abortSignal: signal,
          messages: [...session.run.messages],
          ...(state.resume ? { resume: state.resume } : {}),
          ...(state.ticket ? { resumeMode: state.ticket.resumeMode } : {}),
          ...(state.resume && state.ticket ? { ticket: state.ticket } : {}),
          agentPath: agentPathOf(session),
          ...(children ? { subRuns: createSubRuns(session, state, children) } : {}),
        });
    result = checkedOutput(isToolResult(output) ? output : toolSuccess(output));
  } catch (error) {
    // the activation stops while the call runs a child run: no outcome is recorded; the next
    // activation executes the call again, and it continues its child
    if (error !== undefined && error === session.activation.halt) return;
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
