import { useEffect, useState } from 'react';
import { api, followSse } from '../lib/api';
import { ago, useApi } from '../lib/hooks';
import { type RunEvent, buildTimeline } from '../lib/timeline';
import { StatusBadge } from './runs-page';

/** A run: its record, a timeline of activations, steps, model and tool calls, decisions, raw events. */
export function RunPage({ runId }: { runId: string }) {
  const run = useApi<any>(`/v1/runs/${encodeURIComponent(runId)}`);
  const [events, setEvents] = useState<RunEvent[]>([]);
  const [showRaw, setShowRaw] = useState(false);
  const { reload } = run;

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
        if (event.type === 'run_finish' || event.type === 'run_start') reload();
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
          <span className="key running" /> running <span className="key suspended" /> suspended{' '}
          <span className="key succeeded" /> succeeded <span className="key failed" /> failed / cancelled
        </div>
      </div>

      {timeline.decisions.length > 0 ? (
        <div className="card">
          <h2>Decisions</h2>
          <ul className="decisions">
            {timeline.decisions.map((decision) => (
              <li key={`${decision.toolCallId}-${decision.at}`}>
                <strong>{decision.verdict}</strong> <code>{decision.toolCallId}</code>
                {decision.by ? <> by {decision.by}</> : null}
                {decision.reason ? <span className="muted"> — “{decision.reason}”</span> : null}
              </li>
            ))}
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
