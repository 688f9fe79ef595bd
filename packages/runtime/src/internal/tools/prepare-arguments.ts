import {
  CLIENT_TOOL_ACTION,
  type Suspension,
  type ToolCall,
  type ToolCallState,
  type ToolResult,
  callInstanceKey,
  findJsonIssue,
  formatJsonIssue,
  toolFailure,
  validateJsonSchema,
} from '@awaken/contract';
import type { ResolvedTool } from '../runtime/normalize-tools';
import type { StoredClientTool } from '../runtime/run-request';
import type { RunSession } from '../session/run-session';

/**
 * The arguments the tool receives: the decision payload in `pass_decision_to_tool` mode, else the
 * arguments a human edited when approving, else the model's.
 */
function effectiveArguments(state: ToolCallState): unknown {
  // a nested ticket's resume mode is the child's: its answer is forwarded, never this call's input
  if (state.resume && state.ticket?.resumeMode === 'pass_decision_to_tool' && !state.ticket.suspension.nested)
    return state.resume.result;
  return state.editedArguments !== undefined ? state.editedArguments : state.arguments;
}

function callOf(state: ToolCallState): ToolCall {
  return { id: state.callId, name: state.toolName, arguments: effectiveArguments(state) };
}

/** What a hook about one call sees of it: its step, the call as it would run, its resume and ticket. */
export function callFields(state: ToolCallState) {
  return {
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
export async function prepareArguments(
  session: RunSession,
  state: ToolCallState,
): Promise<{ args: unknown } | { failure: ToolResult } | { unknown: true }> {
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

async function checkServerArguments(
  tool: ResolvedTool,
  raw: unknown,
): Promise<{ args: unknown } | { failure: ToolResult }> {
  const checked = await tool.check(raw);
  if (!checked.ok) return { failure: toolFailure(`invalid arguments: ${checked.message}`) };
  return { args: checked.value };
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
export function clientToolSuspension(state: ToolCallState, args: unknown): Suspension {
  return {
    id: `${CLIENT_TOOL_ACTION}:${callInstanceKey({ step: state.step, call: { id: state.callId } })}`,
    action: CLIENT_TOOL_ACTION,
    message: `run client tool "${state.toolName}"`,
    parameters: { toolName: state.toolName, arguments: args },
  };
}
