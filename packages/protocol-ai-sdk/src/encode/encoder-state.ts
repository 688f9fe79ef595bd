import type { SuspendTicket, TerminationReason } from '@awaken/contract';

/** What the client already holds of one tool call's part. */
export interface ToolPart {
  toolName: string;
  step: number | undefined;
  /** `streaming`: input-streaming; `input`: input-available; `asked`: approval requested; `done`: final. */
  phase: 'streaming' | 'input' | 'asked' | 'done';
  ticket?: SuspendTicket;
  /** The decision that resolved it was a `cancel` (a declined approval or a client tool error). */
  declined?: boolean;
  /** The child run the call runs (a sub-agent call), from its last `subagent_start`. */
  subagent?: { runId: string; threadId: string; agentId: string; agentPath: string[] };
}

/** The assistant message as the client holds it, plus what the current stream has opened. */
export interface EncoderState {
  runId?: string;
  threadId?: string;
  /** Steps the message has a `step-start` part for. */
  steps: Set<number>;
  /** The open step; `reopened` when it continues a step of an earlier activation (no new part). */
  openStep?: { step: number; reopened: boolean };
  tools: Map<string, ToolPart>;
  openText: Set<string>;
  openReasoning: Set<string>;
  lastModelReason?: string;
  /** The last `run_finish` not yet followed by another activation. */
  finished?: { termination: TerminationReason; waitingFor: string[] };
  /** Tickets raised and not yet resolved, in order. */
  waiting: Map<string, string>;
}

export function createEncoderState(): EncoderState {
  return {
    steps: new Set(),
    tools: new Map(),
    openText: new Set(),
    openReasoning: new Set(),
    waiting: new Map(),
  };
}
