import type { UserMessage } from '@awaken/contract';

/** Runtime bookkeeping kept under `__runtime` in RunRecord.state. */
export interface RuntimeBookkeeping {
  /** The last event seq emitted before this checkpoint. */
  lastSeq: number;
  /** Every decision id ever applied to this run (idempotency across activations). */
  decisionIds: string[];
  /** Ids of the other run-control commands (cancel, input) this run applied. */
  controlIds: string[];
  /** The request input, kept until the user_message checkpoint commits it. */
  input?: UserMessage[];
  inputCommitted: boolean;
  /** The last step whose StepEnd ran. */
  stepEnded: number;
  /** Failed tool results in a row so far (consecutive_errors). */
  consecutiveErrors: number;
  /** `name:args` signatures of the latest finished calls, oldest first (loop_detection), bounded. */
  recentCalls: string[];
  /**
   * Ids of the tickets that expired in this run (the latest, bounded): an answer to one of them is
   * refused `ticket_expired` even once the run has moved past its call (`readExpiredTicketIds`).
   */
  expiredTicketIds?: string[];
  /**
   * Subjects who asked for what the run does besides its starter: who sent it input (a steer, a
   * resume) and who approved a call with arguments of their own. A four-eyes ticket refuses their
   * answers (`runAskersOf`).
   */
  askers?: string[];
}
