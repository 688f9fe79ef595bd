import { AwakenError, type TerminationReason } from '@awaken/contract';
import { RunFailureReason } from '../runtime/run-failure';

/** Why an activation stopped without ending its run. */
export type HaltReason = 'detach' | 'lease_lost';

/**
 * The ownership part of a session: the fence every write of this activation carries, and whether it
 * may go on — halted (detached, or its lease taken over), cancelled, or past its deadline. Its signal
 * reaches the model call and every tool; its wake-up is what a parked run waits on.
 */
export class Activation {
  readonly fence: number;
  readonly wake: WakeSignal;
  /** Aborted by a cancel (handle, cancelRun, an inbox cancel; a string reason) or `failRun`. */
  readonly runController: AbortController;
  /** Aborted when the lease is lost: tools and the model call stop at once. */
  readonly haltController = new AbortController();
  /** Set once the activation must stop without a terminal state (detach, lease lost). */
  halt: AwakenError | undefined;
  /** True once the run's lease was taken over: nothing may be written any more. */
  lost = false;
  /** Cancel, lease loss and (while an activation runs) the timeout deadline. */
  signal: AbortSignal;
  deadlineFired = false;
  startedAt = 0;
  /** False once the activations of this handle ended. */
  live = true;
  /** Ids of cancel commands read from the control inbox, recorded by the terminal checkpoint. */
  readonly cancelIds = new Set<string>();

  constructor(
    readonly runId: string,
    init: { fence: number; wake: WakeSignal; runController: AbortController },
  ) {
    this.fence = init.fence;
    this.wake = init.wake;
    this.runController = init.runController;
    this.signal = AbortSignal.any([init.runController.signal, this.haltController.signal]);
  }

  /**
   * Starts an activation's clock and, with a timeout stop condition, its deadline: past it the
   * signal aborts (a slow model call or tool is cut). Returns the function that clears the timer.
   */
  startDeadline(now: number, timeoutSeconds: number | undefined): () => void {
    this.startedAt = now;
    this.deadlineFired = false;
    const base = [this.runController.signal, this.haltController.signal];
    if (timeoutSeconds === undefined) {
      this.signal = AbortSignal.any(base);
      return () => {};
    }
    const deadline = new AbortController();
    this.signal = AbortSignal.any([...base, deadline.signal]);
    const timer = setTimeout(() => {
      this.deadlineFired = true;
      deadline.abort(new AwakenError('timeout', `run exceeded its ${timeoutSeconds} s timeout`));
    }, timeoutSeconds * 1000);
    return () => clearTimeout(timer);
  }

  /**
   * Maps a failed write: `stale_claim` means another activation took the run over, so this one
   * loses its lease (tools abort, nothing more is written) and stops with `detached`.
   */
  writeFailed(error: unknown): unknown {
    if (AwakenError.hasCode(error, 'stale_claim')) {
      this.loseLease(error);
      return this.halt;
    }
    return error;
  }

  /** The run was taken over: stop at once, write nothing more. */
  loseLease(cause: unknown): void {
    if (this.lost) return;
    this.lost = true;
    this.halt = haltError(this.runId, 'lease_lost', cause);
    this.haltController.abort(this.halt);
    this.wake.notify();
  }

  /** Stop at the next safe point without a terminal state (the lease is still held until then). */
  requestDetach(reason: string): void {
    if (this.halt) return;
    this.halt = haltError(this.runId, 'detach', reason);
    this.wake.notify();
  }

  throwIfHalted(): void {
    if (this.halt) throw this.halt;
  }

  throwIfLost(): void {
    if (this.lost) throw this.halt;
  }

  /** The reason the current activation is aborting, as a termination (a lost lease ends nothing). */
  abortTermination(): TerminationReason {
    this.throwIfLost();
    if (this.deadlineFired) {
      return { type: 'stopped', code: 'timeout', detail: 'the run exceeded its timeout' };
    }
    const reason = this.runController.signal.reason;
    if (reason instanceof RunFailureReason) return reason.termination();
    return { type: 'cancelled', ...(typeof reason === 'string' ? { reason } : {}) };
  }

  /** The human-readable reason given to calls cancelled by a run exit. */
  abortMessage(): string {
    if (this.deadlineFired) return 'the run exceeded its timeout';
    const reason = this.runController.signal.reason;
    if (reason instanceof RunFailureReason) return `the run failed: ${reason.failure.message}`;
    return typeof reason === 'string' ? reason : 'the run was cancelled';
  }
}

function haltError(runId: string, reason: HaltReason, cause: unknown): AwakenError {
  const why =
    reason === 'lease_lost'
      ? 'another activation took the run over'
      : `it was detached${typeof cause === 'string' ? ` (${cause})` : ''}`;
  return new AwakenError(
    'detached',
    `the activation of run ${runId} stopped: ${why}; resumeRun continues it`,
    {
      retryable: true,
      details: { runId, reason },
      ...(reason === 'lease_lost' ? { cause } : {}),
    },
  );
}

/**
 * An edge-triggered wake-up: `wait()` resolves at the next `notify()`. Callers check their condition
 * (queue non-empty, signal aborted) before waiting; single-threaded JS makes check-then-wait safe.
 */
export interface WakeSignal {
  notify(): void;
  wait(): Promise<void>;
}

export function createWakeSignal(): WakeSignal {
  let waiters: Array<() => void> = [];
  return {
    notify() {
      const current = waiters;
      waiters = [];
      for (const resolve of current) resolve();
    },
    wait() {
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
      });
    },
  };
}
