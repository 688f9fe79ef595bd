import { useId, useState } from 'react';
import { ApiError, api } from '../lib/api';
import { AnswerRefused, readableRefusal } from '../lib/decide';
import { ago, useNow } from '../lib/hooks';
import {
  type Ticket,
  allowsEditing,
  askedCall,
  isApproval,
  isForkRepeat,
  isIndeterminate,
  recordedResultOf,
} from '../lib/tickets';
import { IndeterminateForm } from './indeterminate-form';
import { NestedPath } from './nested-path';
import { parseJson } from '../lib/parse-json';

/** What a human answered to one ticket. */
export type TicketAnswer =
  /** An approval: yes or no, a reason, and arguments to run the tool with instead (approve only). */
  | { kind: 'approval'; approved: boolean; reason?: string; editedArguments?: unknown }
  /** Any other question (an `indeterminate` call, a request for a value): the decision's result. */
  | { kind: 'value'; result: unknown };

/** The decision `result` an answer sends over the API. */
export function decisionResultOf(answer: TicketAnswer): unknown {
  if (answer.kind === 'value') return answer.result;
  return {
    approved: answer.approved,
    ...(answer.reason ? { reason: answer.reason } : {}),
    ...(answer.editedArguments !== undefined ? { editedArguments: answer.editedArguments } : {}),
  };
}

/** The part of a ticket the form reads (a chat part may know less than the API's ticket). */
export type TicketLike = Pick<Ticket, 'toolName' | 'action'> & Partial<Ticket>;

/**
 * The answer form of one ticket, built from what the ticket says: Approve / Deny / Edit arguments
 * with a reason for an approval; Retry / "It happened" with the result / Fail with a message for an
 * `indeterminate` call; a JSON answer for anything else. Four-eyes and expiry are shown up front. A
 * refused answer is shown as a sentence and the form stays; `closed` replaces the buttons with why
 * the question no longer waits. Every control is a real, labelled button or field.
 */
export function TicketForm(props: {
  ticket: TicketLike;
  onAnswer: (answer: TicketAnswer) => Promise<void> | void;
  /** The question no longer waits ("answered elsewhere", "expired"): no buttons. */
  closed?: string | undefined;
  /** Told when an answer found the question gone (answered elsewhere or expired). */
  onStale?: (refusal: AnswerRefused) => void;
  /** The ticket's run: a four-eyes ticket then offers an approval link for a named approver. */
  runId?: string | undefined;
}) {
  const { ticket } = props;
  const id = useId();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [closed, setClosed] = useState<string>();
  const shut = props.closed ?? closed;
  const approval = isApproval(ticket);
  // a sub-agent's question: the inner call is what is asked (and what an edit replaces)
  const asked = askedCall(ticket);
  const indeterminate = isIndeterminate(ticket);
  const repeat = isForkRepeat(ticket);

  async function send(answer: TicketAnswer) {
    setBusy(true);
    setError(undefined);
    try {
      await props.onAnswer(answer);
    } catch (failure) {
      const refusal = failure instanceof AnswerRefused ? failure : readableRefusal(failure);
      setError(refusal.message);
      if (refusal.stale) {
        setClosed(refusal.kind === 'expired' ? 'expired' : 'answered elsewhere');
        props.onStale?.(refusal);
      }
    } finally {
      setBusy(false);
    }
  }

  const kind = repeat
    ? 'run it again?'
    : indeterminate
      ? 'did it happen?'
      : approval
        ? 'needs approval'
        : ticket.action.replace(/_/g, ' ');
  return (
    <div
      className={`approval${shut ? ' closed' : ''}`}
      data-testid="approval"
      data-action={ticket.action}
      data-state={shut ? 'closed' : 'waiting'}
    >
      <div className="approval-head">
        <span className={`badge ${shut ? 'cancelled' : 'waiting'}`}>{shut ?? kind}</span>
        <code className="tool">{asked.toolName}</code>
        {ticket.requiresDistinctApprover ? (
          <span className="badge four-eyes" title="Whoever started this run cannot answer it">
            needs a second approver
          </span>
        ) : null}
        {ticket.expiresAt && !shut ? <Expiry at={ticket.expiresAt} /> : null}
      </div>
      {ticket.nested ? <NestedPath nested={ticket.nested} /> : null}
      {ticket.message ? <p className="approval-message">{ticket.message}</p> : null}
      {shut ? (
        <>
          <pre className="args">{JSON.stringify(asked.arguments ?? {}, null, 2)}</pre>
          {error ? <p className="muted small">{error}</p> : null}
        </>
      ) : indeterminate ? (
        <IndeterminateForm
          id={id}
          args={asked.arguments}
          busy={busy}
          onAnswer={send}
          {...(repeat ? { repeat: { recordedResult: recordedResultOf(ticket) } } : {})}
        />
      ) : approval ? (
        <ApprovalForm
          id={id}
          args={asked.arguments}
          canEdit={allowsEditing(ticket)}
          busy={busy}
          onAnswer={send}
        />
      ) : (
        <ValueForm id={id} busy={busy} onAnswer={send} />
      )}
      {error && !shut ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {ticket.requiresDistinctApprover && props.runId && ticket.ticketId && approval && !shut ? (
        <ApprovalLink id={id} runId={props.runId} ticketId={ticket.ticketId} />
      ) : null}
    </div>
  );
}

/**
 * Four-eyes: issues a signed approval link for a named second approver
 * (`POST /v1/runs/:runId/tickets/:ticketId/links`) and copies it; the server's refusal (the approver
 * started the run, the asker may not issue one) is shown as the server words it.
 */
function ApprovalLink(props: { id: string; runId: string; ticketId: string }) {
  const [open, setOpen] = useState(false);
  const [approver, setApprover] = useState('');
  const [issued, setIssued] = useState<{ url: string; approver: string; copied: boolean }>();
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (!open) {
    return (
      <div className="link-issuer">
        <div className="row">
          <button type="button" className="ghost small" onClick={() => setOpen(true)}>
            Get an approval link…
          </button>
        </div>
      </div>
    );
  }
  async function issue() {
    const name = approver.trim();
    if (!name) {
      setRefusal('Name the approver the link is for.');
      return;
    }
    setBusy(true);
    setRefusal(undefined);
    try {
      const link = await api<{ url: string }>(
        `/v1/runs/${encodeURIComponent(props.runId)}/tickets/${encodeURIComponent(props.ticketId)}/links`,
        { body: { approver: name } },
      );
      const copied = await navigator.clipboard
        ?.writeText(link.url)
        .then(() => true)
        .catch(() => false);
      setIssued({ url: link.url, approver: name, copied: copied === true });
    } catch (failure) {
      setIssued(undefined);
      setRefusal(
        failure instanceof ApiError
          ? `The server refused the link: ${failure.message}`
          : `The link could not be issued: ${(failure as Error).message}`,
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="link-issuer">
      <label htmlFor={`${props.id}-approver`} className="field-label">
        Second approver
      </label>
      <div className="row">
        <input
          id={`${props.id}-approver`}
          value={approver}
          placeholder="e.g. bob"
          autoComplete="off"
          onChange={(event) => setApprover(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void issue();
            }
          }}
        />
        <button type="button" className="primary small" disabled={busy} onClick={() => void issue()}>
          Issue and copy link
        </button>
      </div>
      {issued ? (
        <>
          <label htmlFor={`${props.id}-link`} className="field-label">
            Approval link for {issued.approver}
          </label>
          <div className="row">
            <input
              id={`${props.id}-link`}
              readOnly
              value={issued.url}
              onFocus={(event) => event.target.select()}
            />
            <button
              type="button"
              className="ghost small"
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(issued.url)
                  .then(() => setIssued({ ...issued, copied: true }))
                  .catch(() => undefined)
              }
            >
              Copy
            </button>
          </div>
          <p className="muted small" role="status">
            {issued.copied ? 'Copied. ' : ''}Send it to {issued.approver}: it answers this question once, as{' '}
            {issued.approver}.
          </p>
        </>
      ) : null}
      {refusal ? (
        <p className="error" role="alert">
          {refusal}
        </p>
      ) : null}
    </div>
  );
}

function Expiry({ at }: { at: number }) {
  const now = useNow(1000);
  return (
    <span className="muted small expiry" title={new Date(at).toLocaleString()}>
      {at > now ? `expires in ${ago(now - (at - now), now)}` : 'expiring…'}
    </span>
  );
}

function ApprovalForm(props: {
  id: string;
  args: unknown;
  canEdit: boolean;
  busy: boolean;
  onAnswer: (answer: TicketAnswer) => void;
}) {
  const { id, busy } = props;
  const [reason, setReason] = useState('');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(() => JSON.stringify(props.args ?? {}, null, 2));
  const [invalid, setInvalid] = useState<string>();
  const why = reason.trim() ? { reason: reason.trim() } : {};
  return (
    <>
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
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => {
              const parsed = parseJson(draft);
              setInvalid(parsed.error ? `The arguments are ${parsed.error}.` : undefined);
              if (!parsed.error)
                props.onAnswer({ kind: 'approval', approved: true, editedArguments: parsed.value, ...why });
            }}
          >
            Approve with edits
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => props.onAnswer({ kind: 'approval', approved: true, ...why })}
          >
            Approve
          </button>
        )}
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => props.onAnswer({ kind: 'approval', approved: false, ...why })}
        >
          Deny
        </button>
        {props.canEdit ? (
          <button type="button" className="ghost" disabled={busy} onClick={() => setEditing(!editing)}>
            {editing ? 'Cancel edit' : 'Edit arguments'}
          </button>
        ) : null}
      </div>
      {invalid ? (
        <p className="error" role="alert">
          {invalid}
        </p>
      ) : null}
    </>
  );
}

/** Any other question: its answer as JSON. */
function ValueForm(props: { id: string; busy: boolean; onAnswer: (answer: TicketAnswer) => void }) {
  const [draft, setDraft] = useState('{}');
  const [invalid, setInvalid] = useState<string>();
  return (
    <div className="answer-detail">
      <label htmlFor={`${props.id}-value`} className="field-label">
        Answer (JSON)
      </label>
      <textarea
        id={`${props.id}-value`}
        className="args-editor"
        value={draft}
        rows={4}
        onChange={(event) => setDraft(event.target.value)}
      />
      <button
        type="button"
        className="primary"
        disabled={props.busy}
        onClick={() => {
          const parsed = parseJson(draft);
          setInvalid(parsed.error ? `The answer is ${parsed.error}.` : undefined);
          if (!parsed.error) props.onAnswer({ kind: 'value', result: parsed.value });
        }}
      >
        Send answer
      </button>
      {invalid ? (
        <p className="error" role="alert">
          {invalid}
        </p>
      ) : null}
    </div>
  );
}
