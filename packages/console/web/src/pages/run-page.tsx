import { useCallback, useEffect, useState } from 'react';
import { TicketForm, decisionResultOf } from '../components/ticket-form';
import { api, followSse } from '../lib/api';
import { decide } from '../lib/decide';
import { ago, useApi } from '../lib/hooks';
import type { Ticket } from '../lib/tickets';
import { type RunEvent, buildTimeline } from '../lib/timeline';
import { StatusBadge } from './runs-page';

/** One applied decision of the run's audit trail (`GET /v1/runs/:id/decisions`). */
interface DecisionRecord {
  decisionId: string;
  toolCallId: string;
  ticketId?: string;
  decidedBy?: string;
  channel?: string;
  decidedAt: number;
  shown: { toolName: string; arguments?: unknown; action?: string };
  answer: {
    action: string;
    approved?: boolean;
    reason?: string;
    editedArguments?: unknown;
    result?: unknown;
  };
}

function verdictOf(record: DecisionRecord): { label: string; tone: string } {
  const { answer } = record;
  if (answer.approved === false) return { label: 'denied', tone: 'failed' };
  if (answer.approved === true)
    return answer.editedArguments === undefined
      ? { label: 'approved', tone: 'done' }
      : { label: 'approved with edits', tone: 'done' };
  if (answer.action === 'cancel') return { label: 'cancelled', tone: 'failed' };
  const outcome = (answer.result as { outcome?: string } | undefined)?.outcome;
  if (record.shown.action === 'indeterminate' && outcome)
    return {
      label: outcome === 'result' ? 'it happened' : outcome,
      tone: outcome === 'fail' ? 'failed' : 'done',
    };
  return { label: 'answered', tone: 'done' };
}

/**
 * A run: its record, the questions it waits on (answerable here), a timeline of activations, steps,
 * model and tool calls (a denied call drawn denied, an expired wait expired, a failed activation
 * red), the decisions with who made them, when and through which channel, and the raw events.
 */
export function RunPage({ runId }: { runId: string }) {
  const run = useApi<any>(`/v1/runs/${encodeURIComponent(runId)}`);
  const trail = useApi<{ decisions: DecisionRecord[] }>(`/v1/runs/${encodeURIComponent(runId)}/decisions`);
  const [events, setEvents] = useState<RunEvent[]>([]);
  const [showRaw, setShowRaw] = useState(false);
  const reloadRun = run.reload;
  const reloadTrail = trail.reload;
  const reload = useCallback(() => {
    reloadRun();
    reloadTrail();
  }, [reloadRun, reloadTrail]);

  useEffect(() => {
    const controller = new AbortController();
    const seen = new Set<number>();
    let finished = false;
    setEvents([]);
    void followSse(
      `/v1/runs/${encodeURIComponent(runId)}/events`,
      (frame) => {
        const event = JSON.parse(frame.data) as RunEvent;
        if (seen.has(event.seq)) return;
        seen.add(event.seq);
        setEvents((all) => [...all, event]);
        finished = event.type === 'run_finish' && event.status === 'done';
        if (
          event.type === 'run_finish' ||
          event.type === 'run_start' ||
          event.type === 'tool_call_resumed' ||
          event.type === 'decision_recorded'
        )
          reload();
      },
      controller.signal,
      { reconnect: true, again: () => !finished },
    );
    return () => controller.abort();
  }, [runId, reload]);

  if (run.error) return <p className="error">{run.error}</p>;
  const record = run.data;
  const live = record && record.status !== 'done';
  const now = live ? Date.now() : (events.at(-1)?.at ?? Date.now());
  const timeline = buildTimeline(events, now);
  const span = timeline.end - timeline.start;
  const pos = (at: number) => `${(((at - timeline.start) / span) * 100).toFixed(2)}%`;
  const width = (from: number, to: number) => `${Math.max(0.6, ((to - from) / span) * 100).toFixed(2)}%`;

  return (
    <section aria-label="Run">
      <div className="page-head">
        <div>
          <p className="crumbs">
            <a href="#/runs">Runs</a> / <code>{runId}</code>
          </p>
          <h1>
            Run {record ? <StatusBadge status={record.status} termination={record.termination} /> : null}
          </h1>
          {record ? (
            <p className="muted small">
              agent <code>{record.agentId}</code> · thread{' '}
              <a href={`#/chat/${record.threadId}`}>{record.threadId}</a> · {record.steps} steps ·{' '}
              {record.usage?.totalTokens ?? 0} tokens · created {ago(record.createdAt)} ago
            </p>
          ) : null}
        </div>
        {record?.status !== 'done' && record ? (
          <button
            type="button"
            className="danger"
            onClick={() =>
              void api(`/v1/runs/${encodeURIComponent(runId)}/cancel`, { method: 'POST', body: {} }).then(
                reload,
              )
            }
          >
            Cancel run
          </button>
        ) : null}
      </div>

      {record?.status === 'waiting' && (record.waiting?.tickets ?? []).length > 0 ? (
        <div className="card" data-testid="run-waiting">
          <h2>Waiting for an answer</h2>
          {(record.waiting.tickets as Ticket[]).map((ticket) =>
            ticket.action === 'client_tool' ? (
              <p key={ticket.ticketId} className="muted small">
                <code>{ticket.toolName}</code> waits for its client — open the{' '}
                <a href={`#/chat/${encodeURIComponent(record.threadId)}`}>chat</a>.
              </p>
            ) : (
              <TicketForm
                key={`${runId}-${ticket.ticketId}`}
                ticket={ticket}
                onAnswer={async (answer) => {
                  await decide(runId, ticket.ticketId, decisionResultOf(answer));
                  reload();
                }}
                onStale={reload}
              />
            ),
          )}
        </div>
      ) : null}

      <div className="card">
        <h2>Timeline {live ? <span className="live-dot" title="live" /> : null}</h2>
        {timeline.lanes.length === 0 ? (
          <p className="muted">No events yet.</p>
        ) : (
          <div className="timeline" data-testid="timeline">
            {timeline.lanes.map((lane) => (
              <div key={lane.id} className={`lane ${lane.kind}`} data-kind={lane.kind}>
                <div className="lane-label" title={lane.label}>
                  {lane.label}
                </div>
                <div className="lane-track">
                  {lane.segments.map((segment, index) => (
                    <div
                      key={`${lane.id}-${index}`}
                      className={`bar ${segment.state}`}
                      data-state={segment.state}
                      style={{ left: pos(segment.from), width: width(segment.from, segment.to) }}
                      title={`${segment.state}: ${segment.to - segment.from} ms`}
                    />
                  ))}
                </div>
                <div className="lane-detail muted small">{lane.detail ?? ''}</div>
              </div>
            ))}
            <div className="axis muted small">
              <span>0 ms</span>
              <span>{span} ms</span>
            </div>
          </div>
        )}
        <div className="legend small muted">
          <span className="key running" /> running <span className="key suspended" /> waiting{' '}
          <span className="key succeeded" /> succeeded <span className="key denied" /> denied{' '}
          <span className="key expired" /> expired <span className="key failed" /> failed / cancelled
        </div>
      </div>

      {(trail.data?.decisions ?? []).length > 0 ? (
        <div className="card">
          <h2>Decisions</h2>
          <ul className="decisions" data-testid="decisions">
            {(trail.data?.decisions ?? []).map((decision) => {
              const verdict = verdictOf(decision);
              return (
                <li key={decision.decisionId} data-testid="decision">
                  <span className={`badge ${verdict.tone}`}>{verdict.label}</span>{' '}
                  <code>{decision.shown.toolName}</code> by{' '}
                  <strong data-testid="decided-by">{decision.decidedBy ?? 'someone unidentified'}</strong>
                  {decision.channel ? <span className="muted"> via {decision.channel}</span> : null}{' '}
                  <time className="muted small" dateTime={new Date(decision.decidedAt).toISOString()}>
                    {new Date(decision.decidedAt).toLocaleString()}
                  </time>
                  {decision.answer.reason ? (
                    <span className="muted"> — “{decision.answer.reason}”</span>
                  ) : null}
                  {decision.answer.editedArguments !== undefined ? (
                    <span className="small">
                      {' '}
                      → <code>{JSON.stringify(decision.answer.editedArguments)}</code>
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}

      {record?.response ? (
        <div className="card">
          <h2>Final answer</h2>
          <p data-testid="final-answer">{record.response}</p>
        </div>
      ) : null}
      {record?.termination?.type === 'error' ? (
        <div className="card">
          <h2>Error</h2>
          <p className="error">{record.termination.message ?? 'the run failed'}</p>
        </div>
      ) : null}

      <div className="card">
        <div className="row-between">
          <h2>Raw events ({events.length})</h2>
          <button
            type="button"
            className="ghost small"
            onClick={() => setShowRaw(!showRaw)}
            aria-expanded={showRaw}
          >
            {showRaw ? 'Hide' : 'Show'}
          </button>
        </div>
        {showRaw ? (
          <ol className="raw-events">
            {events.map((event) => (
              <li key={event.seq}>
                <code>
                  {event.seq} {event.type}
                </code>{' '}
                <span className="muted small">
                  {JSON.stringify({ ...event, seq: undefined, type: undefined, runId: undefined })}
                </span>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </section>
  );
}
