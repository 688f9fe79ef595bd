import type { DecisionReceipt, ToolCallDecisionInput } from '../hitl/decision';
import type { UserMessage } from '../messages/message';
import type { RunStatus } from '../run/run-status';
import type { RunWaitingState } from '../run/run-waiting-state';
import type { TerminationReason } from '../run/termination-reason';

/** What a tool asks of {@link SubRuns.run}: which agent runs as the call's child, with what. */
export interface SubRunRequest {
  /** An agent of the same runtime. */
  agentId: string;
  /**
   * The child's input (a string is one user message). Used only when the child is created: a call
   * executed again (a crash, a resume, a replay after a decision) finds its child and continues it.
   */
  input: string | UserMessage[];
  /**
   * Decisions for the child's tickets, applied before it continues (answers forwarded from the
   * parent's nested ticket, see `forwardDecision`). Each is judged by the child's own judge.
   */
  decisions?: ToolCallDecisionInput[];
}

/** How the child run stands once its inline activation ended (it finished, or it waits). */
export interface SubRunOutcome {
  runId: string;
  threadId: string;
  agentId: string;
  /** Agent ids from the top-level run's agent to the child's (the child's last). */
  agentPath: string[];
  /** True when this execution created the child; false when it found one an earlier execution started. */
  created: boolean;
  /** `waiting` (it asks: see `waiting.tickets`) or `done`. */
  status: RunStatus;
  termination: TerminationReason;
  /** The child's final (or last) assistant text. */
  response?: string;
  /** The child's open questions while it waits, in call order. */
  waiting?: RunWaitingState;
  /** One receipt per forwarded decision (`accepted`, `duplicate` for one applied before, or `rejected`). */
  receipts: DecisionReceipt[];
}

/**
 * The capability to run child runs, given by the runtime to every tool call it executes
 * (`ToolExecuteContext.subRuns`); `agentTool` is built on it.
 *
 * `run` starts the call's child run — a normal run record with `origin: 'internal'`, `parentRunId`,
 * `parentCallId`, `agentPath` and the parent's `context` (the caller: four-eyes and audit see the
 * same starter), on its own thread — or finds it: the child's run and thread ids are derived from
 * the parent run, the call's step and the call id, so a call executed again never starts a second
 * child. The child runs **inline**, inside this tool execution, through the runtime's own run and
 * resume (its own lease, fencing, checkpoints and event log), until it finishes or waits; it is not
 * queued through a mailbox, because a parent holding a worker while waiting for its child to be
 * claimed would deadlock a pool whose every worker holds a parent. Cancelling the parent (or its
 * timeout) cancels the child; a parent that detaches or loses its lease detaches the child (the call
 * then throws the parent's `detached` error and is executed again by the next activation, which
 * finds the child). A child still held by another activation (a crashed process's lease that has not
 * lapsed yet) is waited for, up to twice the run lease, before the call fails. The parent's stream gets `subagent_start` / `subagent_finish` around each inline
 * activation of the child.
 */
export interface SubRuns {
  run(request: SubRunRequest): Promise<SubRunOutcome>;
}
