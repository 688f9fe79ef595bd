import { ApprovalCard, type ApprovalAnswer } from '../components/approval-card';

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

const COLORS: Record<string, string> = { red: '#ef4444', green: '#22c55e', blue: '#3b82f6' };

/**
 * One tool call in the chat: its state, arguments and result; an approval card while it waits for
 * approval; color buttons while the client tool `choose_color` waits for the page.
 */
export function ToolCallView(props: {
  part: ToolPart;
  onApproval: (part: ToolPart, answer: ApprovalAnswer) => Promise<void>;
  onClientOutput: (part: ToolPart, output: unknown) => void;
}) {
  const { part } = props;
  const name = part.type.slice('tool-'.length);
  if (part.state === 'approval-requested' && part.approval) {
    return (
      <ApprovalCard toolName={name} args={part.input} onAnswer={(answer) => props.onApproval(part, answer)} />
    );
  }
  const state = STATE_LABEL[part.state] ?? { label: part.state, tone: 'running' };
  const options = (part.input as { options?: string[] } | undefined)?.options;
  const waitsForClient =
    name === 'choose_color' && part.state === 'input-available' && Array.isArray(options);
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
        <p className="muted small">{part.errorText ?? part.approval?.reason ?? 'not run'}</p>
      ) : null}
    </div>
  );
}
