import { useState } from 'react';
import { parseJson } from '../lib/parse-json';
import type { TicketAnswer } from './ticket-form';

/**
 * retry / "it happened: here is the result" / fail: the three answers of an `indeterminate` question
 * — a crashed call (did it happen?) or a fork about to repeat a call the source already ran (run it
 * again?), whose form starts with the recorded result.
 */
export function IndeterminateForm(props: {
  id: string;
  args: unknown;
  busy: boolean;
  onAnswer: (answer: TicketAnswer) => void;
  /** A fork's question: the buttons say "run again" / "use a result", the result starts as recorded. */
  repeat?: { recordedResult: unknown };
}) {
  const { id, busy } = props;
  const [mode, setMode] = useState<'result' | 'fail'>();
  const [draft, setDraft] = useState(
    props.repeat ? JSON.stringify(props.repeat.recordedResult ?? null, null, 2) : '{}',
  );
  const [message, setMessage] = useState('');
  const [invalid, setInvalid] = useState<string>();
  return (
    <>
      <pre className="args">{JSON.stringify(props.args ?? {}, null, 2)}</pre>
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => props.onAnswer({ kind: 'value', result: { outcome: 'retry' } })}
        >
          {props.repeat ? 'Run again' : 'Retry'}
        </button>
        <button
          type="button"
          className="ghost"
          disabled={busy}
          aria-expanded={mode === 'result'}
          onClick={() => setMode(mode === 'result' ? undefined : 'result')}
        >
          {props.repeat ? 'Use a result…' : 'It happened…'}
        </button>
        <button
          type="button"
          className="ghost"
          disabled={busy}
          aria-expanded={mode === 'fail'}
          onClick={() => setMode(mode === 'fail' ? undefined : 'fail')}
        >
          Fail…
        </button>
      </div>
      {mode === 'result' ? (
        <div className="answer-detail">
          <label htmlFor={`${id}-result`} className="field-label">
            Result (JSON)
          </label>
          <textarea
            id={`${id}-result`}
            className="args-editor"
            value={draft}
            rows={Math.min(10, draft.split('\n').length + 1)}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => {
              const parsed = parseJson(draft);
              setInvalid(parsed.error ? `The result is ${parsed.error}.` : undefined);
              if (!parsed.error)
                props.onAnswer({ kind: 'value', result: { outcome: 'result', result: parsed.value } });
            }}
          >
            {props.repeat ? 'Use this result' : 'Record the result'}
          </button>
        </div>
      ) : null}
      {mode === 'fail' ? (
        <div className="answer-detail">
          <label htmlFor={`${id}-fail`} className="field-label">
            Failure message
          </label>
          <input
            id={`${id}-fail`}
            className="reason"
            value={message}
            onChange={(event) => setMessage(event.target.value)}
          />
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() =>
              props.onAnswer({
                kind: 'value',
                result: { outcome: 'fail', ...(message.trim() ? { reason: message.trim() } : {}) },
              })
            }
          >
            Fail the call
          </button>
        </div>
      ) : null}
      {invalid ? (
        <p className="error" role="alert">
          {invalid}
        </p>
      ) : null}
    </>
  );
}
