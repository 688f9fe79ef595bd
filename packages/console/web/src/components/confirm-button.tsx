import { useState } from 'react';

/** A button that asks "are you sure?" in place before it acts (Confirm / Cancel, keyboard reachable). */
export function ConfirmButton(props: {
  label: string;
  question: string;
  tone?: 'primary' | 'danger';
  onConfirm: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (!asking) {
    return (
      <button type="button" className={props.tone ?? 'ghost'} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <fieldset className="confirm" aria-label={props.question}>
      <span className="small">{props.question}</span>
      <button
        type="button"
        className={props.tone ?? 'primary'}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await props.onConfirm();
            setAsking(false);
          } catch (failure) {
            setError((failure as Error).message);
          } finally {
            setBusy(false);
          }
        }}
      >
        Confirm
      </button>
      <button type="button" className="ghost" onClick={() => setAsking(false)}>
        Cancel
      </button>
      {error ? <span className="error small">{error}</span> : null}
    </fieldset>
  );
}
