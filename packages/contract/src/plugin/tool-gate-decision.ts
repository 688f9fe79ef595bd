import type { ToolCallResumeMode } from '../hitl/suspension';
import type { Suspension } from '../hitl/suspension';
import type { ToolResult } from '../tool/tool-result';

/**
 * The pure judgement a ToolGate hook makes about one call:
 * - `allow`: proceed (the next plugin may still judge);
 * - `block`: the call fails with `reason`; the run ends `blocked` unless `continueRun` is true, in
 *   which case the model sees the reason and the loop continues;
 * - `suspend`: the call suspends with a SuspendTicket built from `suspension` and `resumeMode`
 *   (default `replay_tool_call`); the ticket is checkpointed before `tool_call_suspended` is emitted;
 *   `approvalTimeout` (ms) sets the ticket's `expiresAt` (over the tool's and the agent's timeout);
 * - `set_result`: the call is not executed; `result` is its result;
 * - `cancel`: the call becomes `cancelled` and the model sees `reason` (used e.g. when a human
 *   declined an approval).
 */
export type ToolGateDecision =
  | { type: 'allow' }
  | { type: 'block'; reason: string; continueRun?: boolean }
  | { type: 'suspend'; suspension: Suspension; resumeMode?: ToolCallResumeMode; approvalTimeout?: number }
  | { type: 'set_result'; result: ToolResult }
  | { type: 'cancel'; reason: string };
