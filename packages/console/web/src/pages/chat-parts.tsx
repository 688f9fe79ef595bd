import { type TicketAnswer, TicketForm } from '../components/ticket-form';
import type { Ticket } from '../lib/tickets';
import type { ChatDecision } from '../lib/thread-history';

/** A tool part of a UI message (AI SDK v6 `tool-<name>` part), as far as the console reads it. */
export interface ToolPart {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
}

const STATE_LABEL: Record<string, { label: string; tone: string }> = {
  'input-streaming': { label: 'preparing', tone: 'running' },
  'input-available': { label: 'running', tone: 'running' },
  'approval-requested': { label: 'waiting for approval', tone: 'waiting' },
  'approval-responded': { label: 'answered', tone: 'running' },
  'output-available': { label: 'succeeded', tone: 'done' },
  'output-error': { label: 'failed', tone: 'failed' },
  'output-denied': { label: 'denied', tone: 'failed' },
};

/** The state a finished call is shown with: an error part says whether it was blocked or expired. */
function stateOf(part: ToolPart): { label: string; tone: string } {
  if (part.state === 'output-error') {
    if (/^blocked\b|permission denied/i.test(part.errorText ?? ''))
      return { label: 'blocked', tone: 'failed' };
    if (/expired/i.test(part.errorText ?? '')) return { label: 'expired', tone: 'expired' };
  }
  return STATE_LABEL[part.state] ?? { label: part.state, tone: 'running' };
}

const COLORS: Record<string, string> = { red: '#ef4444', green: '#22c55e', blue: '#3b82f6' };

/**
 * One tool call in the chat, as the server says it went: its state, arguments and result (or error);
 * the answer form while it waits on a ticket (an approval, an `indeterminate` question); color buttons
 * while the client tool `choose_color` waits for the page; who decided it, once someone did.
 */
export function ToolCallView(props: {
  part: ToolPart;
  /** The ticket the call waits on (from its run), when the chat knows it. */
  ticket?: Ticket | undefined;
  decision?: ChatDecision | undefined;
  /** The call's run (a four-eyes ticket offers an approval link for it). */
  runId?: string | undefined;
  onAnswer: (part: ToolPart, answer: TicketAnswer) => Promise<void>;
  onClientOutput: (part: ToolPart, output: unknown) => void;
}) {
  const { part, ticket } = props;
  const name = part.type.slice('tool-'.length);
  const asks = part.state === 'approval-requested' && part.approval;
  const asksValue = part.state === 'input-available' && ticket && ticket.action !== 'client_tool';
  if (asks || asksValue) {
    return (
      <TicketForm
        ticket={
          ticket ?? {
            toolName: name,
            action: 'confirm',
            message: '',
            arguments: part.input,
            resumeMode: 'replay_tool_call',
          }
        }
        onAnswer={(answer) => props.onAnswer(part, answer)}
        runId={props.runId}
      />
    );
  }
  const state = stateOf(part);
  const options = (part.input as { options?: string[] } | undefined)?.options;
  const waitsForClient =
    name === 'choose_color' && part.state === 'input-available' && Array.isArray(options);
  const decision = props.decision;
  return (
    <div className="tool-call" data-testid="tool-call" data-state={part.state}>
      <div className="tool-head">
        <code className="tool">{name}</code>
        <span className={`badge ${waitsForClient ? 'waiting' : state.tone}`}>
          {waitsForClient ? 'waiting for you' : state.label}
        </span>
      </div>
      <pre className="args">{JSON.stringify(part.input ?? {}, null, 0)}</pre>
      {waitsForClient ? (
        <fieldset className="color-choice" aria-label="Pick a color">
          {options.map((color) => (
            <button
              key={color}
              type="button"
              className="swatch"
              onClick={() => props.onClientOutput(part, { color })}
            >
              <span className="dot" style={{ background: COLORS[color] ?? color }} aria-hidden="true" />
              {color}
            </button>
          ))}
        </fieldset>
      ) : null}
      {part.state === 'output-available' ? (
        <pre className="result">→ {JSON.stringify(part.output)}</pre>
      ) : null}
      {part.state === 'output-error' || part.state === 'output-denied' ? (
        <p className="small call-error">{part.errorText ?? part.approval?.reason ?? 'not run'}</p>
      ) : null}
      {decision && (decision.decidedBy || decision.channel) ? (
        <p className="muted small" data-testid="decided">
          {decision.approved === false
            ? 'denied'
            : decision.approved === true
              ? decision.edited
                ? 'approved with edits'
                : 'approved'
              : 'answered'}{' '}
          by {decision.decidedBy ?? 'someone'}
          {decision.channel ? ` via ${decision.channel}` : ''}
        </p>
      ) : null}
    </div>
  );
}
