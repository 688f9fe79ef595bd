import { type KeyboardEvent, useCallback, useEffect, useState } from 'react';
import { AgentDriftBadge } from '../components/agent-drift-badge';
import { CallDetail, CallTable } from '../components/call-table';
import { ChildRuns, ParentRunLink } from '../components/child-runs';
import { ForkFromStep, ForkedFrom } from '../components/fork-from-step';
import { ShadowLane, ShadowVerdictList } from '../components/shadow-verdicts';
import { TicketForm, decisionResultOf } from '../components/ticket-form';
import { api, followSse } from '../lib/api';
import { decide } from '../lib/decide';
import { shadowVerdictsOf } from '../lib/shadow-verdicts';
import { buildCalls } from '../lib/calls';
import { ago, useApi, when } from '../lib/hooks';
import { childRunsOf } from '../lib/subagents';
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
  /** A sub-agent's question: the child run, ticket and decision the answer was forwarded to. */
  forwardedTo?: { runId: string; ticketId: string; decisionId: string };
}

/** A mailbox dispatch of the run's thread (`GET /v1/threads/:id/dispatches`), as the page reads it. */
interface DispatchRow {
  dispatchId: string;
  runId: string;
  status: string;
  attemptCount: number;
  maxAttempts: number;
  lastError?: string;
}

function dispatchTone(status: string): string {
  if (status === 'dead_letter') return 'failed';
  if (status === 'acked') return 'done';
  if (status === 'claimed') return 'running';
  if (status === 'queued') return 'waiting';
  return 'cancelled';
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
  if ((record.shown.action === 'indeterminate' || record.shown.action === 'fork_repeat') && outcome)
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
  const [selected, setSelected] = useState<string>();
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
          event.type === 'decision_recorded' ||
          event.type === 'handoff'
        )
          reload();
      },
      controller.signal,
      { reconnect: true, again: () => !finished },
    );
    return () => controller.abort();
  }, [runId, reload]);

  const record = run.data;
  // what the run's first model call read: its input messages from the thread log
  const range = record?.inputRange as { from: number; to: number } | undefined;
  const input = useApi<{ items: Array<{ message: { role: string; content?: unknown } }> }>(
    record && range && range.to >= range.from
      ? `/v1/threads/${encodeURIComponent(record.threadId)}/messages?after=${range.from - 1}&limit=${Math.min(20, range.to - range.from + 1)}`
      : null,
  );
  const dispatches = useApi<{ items: DispatchRow[] }>(
    record ? `/v1/threads/${encodeURIComponent(record.threadId)}/dispatches?limit=200` : null,
  );
  if (run.error) return <p className="error">{run.error}</p>;
  const live = record && record.status !== 'done';
  const now = live ? Date.now() : (events.at(-1)?.at ?? Date.now());
  const timeline = buildTimeline(events, now);
  const inputText = input.data?.items
    .map((item) => item.message.content)
    .filter((content) => content !== undefined);
  const calls = buildCalls(
    events,
    now,
    inputText && inputText.length > 0 ? (inputText.length === 1 ? inputText[0] : inputText) : undefined,
  );
  const chosen = calls.find((call) => call.id === selected);
  const shadow = shadowVerdictsOf(events);
  const children = childRunsOf(events);
  const runDispatches = (dispatches.data?.items ?? []).filter((dispatch) => dispatch.runId === runId);
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
            <>
              <ParentRunLink record={record} />
              <ForkedFrom forkOf={record.forkOf} />
              <p className="muted small">
                agent <code>{record.agentId}</code>
                {record.activeAgentId && record.activeAgentId !== record.agentId ? (
                  <>
                    {' '}
                    → handed to <code data-testid="active-agent">{record.activeAgentId}</code>
                  </>
                ) : null}{' '}
                · thread <a href={`#/chat/${encodeURIComponent(record.threadId)}`}>{record.threadId}</a> ·{' '}
                {record.steps} {record.steps === 1 ? 'step' : 'steps'} · {record.usage?.totalTokens ?? 0}{' '}
                tokens · created{' '}
                <time dateTime={new Date(record.createdAt).toISOString()} title={when(record.createdAt)}>
                  {ago(record.createdAt)} ago
                </time>
              </p>
              <AgentDriftBadge drift={record.agentDrift} />
              <p className="run-links small">
                <a href={`#/chat/${encodeURIComponent(record.threadId)}`}>Open the chat</a>
                <a href="#/threads">All threads</a>
                <a href="#dispatches">Mailbox dispatches ({runDispatches.length})</a>
              </p>
            </>
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
          {record.parentRunId ? (
            <p className="muted small" data-testid="answer-at-parent">
              A sub-agent's question is answered on its top-level run, which forwards the answer here:{' '}
              <a href={`#/run/${encodeURIComponent(record.parentRunId)}`}>answer it on the parent run</a>.
            </p>
          ) : null}
          {(record.waiting.tickets as Ticket[]).map((ticket) =>
            record.parentRunId ? (
              <p key={ticket.ticketId} className="small">
                <code>{ticket.toolName}</code> <span className="muted">{ticket.message}</span>
              </p>
            ) : ticket.action === 'client_tool' ? (
              <p key={ticket.ticketId} className="muted small">
                <code>{ticket.toolName}</code> waits for its client — open the{' '}
                <a href={`#/chat/${encodeURIComponent(record.threadId)}`}>chat</a>.
              </p>
            ) : (
              <TicketForm
                key={`${runId}-${ticket.ticketId}`}
                ticket={ticket}
                runId={runId}
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
                  {lane.href ? <a href={lane.href}>{lane.label}</a> : lane.label}
                </div>
                <div className="lane-track">
                  {lane.segments.map((segment, index) => {
                    const call = lane.kind === 'model' || lane.kind === 'tool';
                    return (
                      <div
                        key={`${lane.id}-${index}`}
                        className={`bar ${segment.state}${call && selected === lane.id ? ' selected' : ''}`}
                        data-state={segment.state}
                        style={{ left: pos(segment.from), width: width(segment.from, segment.to) }}
                        title={`${segment.state}: ${segment.to - segment.from} ms`}
                        {...(call
                          ? {
                              role: 'button',
                              tabIndex: index === 0 ? 0 : -1,
                              'aria-label': `${lane.label}: ${segment.state} (open the call)`,
                              onClick: () => setSelected(lane.id),
                              onKeyDown: (event: KeyboardEvent) => {
                                if (event.key === 'Enter' || event.key === ' ') {
                                  event.preventDefault();
                                  setSelected(lane.id);
                                }
                              },
                            }
                          : {})}
                      />
                    );
                  })}
                </div>
                <div className="lane-detail muted small">{lane.detail ?? ''}</div>
              </div>
            ))}
            <ShadowLane verdicts={shadow} pos={pos} />
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
        <ShadowVerdictList verdicts={shadow} />
      </div>

      <ChildRuns runs={children} />

      {record ? <ForkFromStep runId={runId} steps={record.steps} parentRunId={record.parentRunId} /> : null}

      {calls.length > 0 ? (
        <div className="card">
          <h2>Calls</h2>
          <p className="muted small">Click a row or a bar to see what went in and what came out.</p>
          <CallTable calls={calls} selected={selected} onSelect={setSelected} />
          {chosen ? <CallDetail call={chosen} /> : null}
        </div>
      ) : null}

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
                  {decision.forwardedTo ? (
                    <span className="small" data-testid="forwarded-to">
                      {' '}
                      → forwarded to the{' '}
                      <a href={`#/run/${encodeURIComponent(decision.forwardedTo.runId)}`}>child run</a>
                    </span>
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

      <div className="card" id="dispatches">
        <h2>Mailbox dispatches</h2>
        {runDispatches.length === 0 ? (
          <p className="muted small">
            {record?.parentRunId
              ? 'A sub-agent runs inside its parent run’s activations: it has no dispatch of its own.'
              : 'No dispatch of this run is kept (finished ones may have been purged).'}
          </p>
        ) : (
          <ul className="dispatch-list" data-testid="run-dispatches">
            {runDispatches.map((dispatch) => (
              <li key={dispatch.dispatchId}>
                <span className={`badge ${dispatchTone(dispatch.status)}`}>
                  {dispatch.status.replace('_', ' ')}
                </span>
                <code className="small">{dispatch.dispatchId}</code>
                {dispatch.attemptCount > 0 ? (
                  <span className="muted small">
                    {dispatch.attemptCount} failed attempt{dispatch.attemptCount === 1 ? '' : 's'} of{' '}
                    {dispatch.maxAttempts}
                  </span>
                ) : null}
                {dispatch.lastError ? <span className="small call-error">{dispatch.lastError}</span> : null}
                {dispatch.status === 'dead_letter' ? (
                  <a className="small" href="#/mailbox">
                    requeue in the mailbox
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>

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
