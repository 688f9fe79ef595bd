import type { CallView } from '../lib/calls';
import { when } from '../lib/hooks';

const CALL_TONE: Record<string, string> = {
  succeeded: 'done',
  stop: 'done',
  'tool-calls': 'done',
  tool_calls: 'done',
  length: 'waiting',
  waiting: 'waiting',
  running: 'running',
  expired: 'expired',
};

function toneOf(call: CallView): string {
  return CALL_TONE[call.status] ?? (call.error ? 'failed' : 'done');
}

function ms(value: number | undefined): string {
  if (value === undefined) return '—';
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;
}

/** The run's model and tool calls, one row each: select one to see its input and output. */
export function CallTable(props: {
  calls: CallView[];
  selected?: string | undefined;
  onSelect: (id: string) => void;
}) {
  return (
    <table className="calls" aria-label="Calls">
      <thead>
        <tr>
          <th>call</th>
          <th>status</th>
          <th className="num">duration</th>
          <th className="num hide-sm">waited</th>
          <th className="num">tokens</th>
        </tr>
      </thead>
      <tbody>
        {props.calls.map((call) => (
          <tr
            key={call.id}
            aria-selected={props.selected === call.id}
            data-testid="call-row"
            data-kind={call.kind}
            tabIndex={0}
            onClick={() => props.onSelect(call.id)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                props.onSelect(call.id);
              }
            }}
          >
            <td>
              <code>{call.name}</code>
              {call.step ? <span className="muted small"> · step {call.step}</span> : null}
            </td>
            <td>
              <span className={`badge ${toneOf(call)}`}>{call.status}</span>
            </td>
            <td className="num">{ms(call.durationMs)}</td>
            <td className="num hide-sm">{call.waitedMs ? ms(call.waitedMs) : ''}</td>
            <td className="num">{call.tokens ? call.tokens.totalTokens : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** One call's input, output, error, duration and tokens. */
export function CallDetail({ call }: { call: CallView }) {
  return (
    <section className="call-detail" aria-label={`Call ${call.name}`} data-testid="call-detail">
      <h3>
        <code>{call.name}</code> <span className={`badge ${toneOf(call)}`}>{call.status}</span>
      </h3>
      <dl>
        <dt>{call.kind === 'model' ? 'New input' : 'Input'}</dt>
        <dd>{call.input === undefined ? <span className="muted">—</span> : <pre>{show(call.input)}</pre>}</dd>
        <dt>Output</dt>
        <dd>
          {call.output === undefined ? <span className="muted">—</span> : <pre>{show(call.output)}</pre>}
        </dd>
        {call.error ? (
          <>
            <dt>Error</dt>
            <dd>
              <pre className="failed">{call.error}</pre>
            </dd>
          </>
        ) : null}
        <dt>Started</dt>
        <dd>
          <time dateTime={new Date(call.startedAt).toISOString()}>{when(call.startedAt)}</time>
        </dd>
        <dt>Duration</dt>
        <dd>
          {ms(call.durationMs)}
          {call.waitedMs ? (
            <span className="muted"> (and {ms(call.waitedMs)} waiting for an answer)</span>
          ) : null}
        </dd>
        {call.tokens ? (
          <>
            <dt>Tokens</dt>
            <dd>
              {call.tokens.inputTokens} in · {call.tokens.outputTokens} out · {call.tokens.totalTokens} total
            </dd>
          </>
        ) : null}
        {call.decision ? (
          <>
            <dt>Decided by</dt>
            <dd>{call.decision}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
