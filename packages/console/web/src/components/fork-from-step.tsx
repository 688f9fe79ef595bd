import { useState } from 'react';
import { api } from '../lib/api';
import '../branches.css';

/** Where a forked run comes from (`forkOf` of `GET /v1/runs/:id`). */
export interface ForkOrigin {
  runId: string;
  threadId: string;
  step: number;
  atSeq: number;
  instructions?: string;
}

/** What `POST /v1/runs/:id/fork` answers (202). */
interface ForkStarted {
  runId: string;
  threadId: string;
  dispatchId?: string;
  forkOf: ForkOrigin;
}

/** "Forked from run X at step k", linking to the source run and its thread. Nothing for a run that is no fork. */
export function ForkedFrom({ forkOf }: { forkOf: ForkOrigin | undefined }) {
  if (!forkOf) return null;
  return (
    <p className="branch-origin small" data-testid="forked-from">
      <span className="badge created">fork</span> forked from run{' '}
      <a href={`#/run/${encodeURIComponent(forkOf.runId)}`}>
        <code>{forkOf.runId.slice(0, 8)}</code>
      </a>{' '}
      at step {forkOf.step}
      <span className="muted">
        {' '}
        · on a branch of thread{' '}
        <a href={`#/chat/${encodeURIComponent(forkOf.threadId)}`}>{forkOf.threadId}</a>
        {forkOf.instructions ? ' · with other instructions' : ''}
      </span>
    </p>
  );
}

/**
 * "Fork from this step": one button per step of a top-level run (1 to `steps`). A fork is a new run
 * on a branch of the thread from where that step began: what the run recorded before it is reused,
 * the model answers that step afresh (with other instructions when given). The console opens the new
 * run's page. Nothing for a sub-agent's child run (it is forked through its parent) or a run with no step.
 */
export function ForkFromStep({
  runId,
  steps,
  parentRunId,
}: {
  runId: string;
  steps: number;
  parentRunId?: string;
}) {
  const [busy, setBusy] = useState<number>();
  const [error, setError] = useState<string>();
  const [instructions, setInstructions] = useState('');
  if (parentRunId || !(steps > 0)) return null;

  async function fork(step: number) {
    setBusy(step);
    setError(undefined);
    try {
      const started = await api<ForkStarted>(`/v1/runs/${encodeURIComponent(runId)}/fork`, {
        body: {
          atStep: step,
          stream: false,
          ...(instructions.trim() ? { instructions: instructions.trim() } : {}),
        },
      });
      window.location.hash = `#/run/${encodeURIComponent(started.runId)}`;
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <div className="card" data-testid="fork-from-step">
      <h2>Fork from a step</h2>
      <p className="muted small">
        Runs the step again in a new run on a branch of the thread: what came before it is reused as recorded
        (no tool runs twice without asking), the model answers that step afresh.
      </p>
      <ul className="fork-steps">
        {Array.from({ length: steps }, (_, index) => index + 1).map((step) => (
          <li key={step}>
            <button
              type="button"
              className="ghost small"
              disabled={busy !== undefined}
              aria-label={`Fork from step ${step}`}
              onClick={() => void fork(step)}
            >
              {busy === step ? 'Forking…' : `Fork from step ${step}`}
            </button>
          </li>
        ))}
      </ul>
      <details className="small">
        <summary>Other instructions for the fork</summary>
        <label className="sr-only" htmlFor="fork-instructions">
          Instructions for the fork
        </label>
        <textarea
          id="fork-instructions"
          rows={3}
          placeholder="A system prompt replacing the agent's own for the fork (optional)"
          value={instructions}
          onChange={(event) => setInstructions(event.target.value)}
        />
      </details>
      {error ? (
        <p className="error small" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
