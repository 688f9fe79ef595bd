import { useId, useState } from 'react';

/** What a human answered to one approval. */
export interface ApprovalAnswer {
  approved: boolean;
  reason?: string;
  /** Arguments to run the tool with instead of the proposed ones (approve only). */
  editedArguments?: unknown;
}

/**
 * One pending approval: the tool, its arguments and the question, with Approve / Deny, an optional
 * reason and an editor for the arguments. Every control is a real button or field (keyboard reachable).
 */
export function ApprovalCard(props: {
  toolName: string;
  args: unknown;
  message?: string | undefined;
  canEdit?: boolean;
  onAnswer: (answer: ApprovalAnswer) => Promise<void> | void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(() => JSON.stringify(props.args ?? {}, null, 2));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function answer(value: ApprovalAnswer) {
    setBusy(true);
    setError(undefined);
    try {
      await props.onAnswer({ ...value, ...(reason.trim() ? { reason: reason.trim() } : {}) });
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  function approveEdited() {
    try {
      void answer({ approved: true, editedArguments: JSON.parse(draft) });
    } catch {
      setError('the arguments are not valid JSON');
    }
  }

  return (
    <div className="approval" data-testid="approval">
      <div className="approval-head">
        <span className="badge waiting">needs approval</span>
        <code className="tool">{props.toolName}</code>
      </div>
      {props.message ? <p className="approval-message">{props.message}</p> : null}
      {editing ? (
        <>
          <label htmlFor={`${id}-args`} className="field-label">
            Arguments (JSON)
          </label>
          <textarea
            id={`${id}-args`}
            className="args-editor"
            value={draft}
            rows={Math.min(10, draft.split('\n').length + 1)}
            onChange={(event) => setDraft(event.target.value)}
          />
        </>
      ) : (
        <pre className="args">{JSON.stringify(props.args ?? {}, null, 2)}</pre>
      )}
      <label htmlFor={`${id}-reason`} className="sr-only">
        Reason
      </label>
      <input
        id={`${id}-reason`}
        className="reason"
        placeholder="Reason (optional)"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="actions">
        {editing ? (
          <button type="button" className="primary" disabled={busy} onClick={approveEdited}>
            Approve with edits
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => answer({ approved: true })}
          >
            Approve
          </button>
        )}
        <button type="button" className="danger" disabled={busy} onClick={() => answer({ approved: false })}>
          Deny
        </button>
        {props.canEdit === false ? null : (
          <button type="button" className="ghost" disabled={busy} onClick={() => setEditing(!editing)}>
            {editing ? 'Cancel edit' : 'Edit arguments'}
          </button>
        )}
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
