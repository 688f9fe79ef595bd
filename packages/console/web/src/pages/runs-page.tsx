import { type FormEvent, useEffect, useState } from 'react';
import '../lists.css';
import { useApi } from '../lib/hooks';
import { at, duration } from '../lib/time';

/** A run status as a colored badge (a done run shows how it ended). */
export function StatusBadge({ status, termination }: { status: string; termination?: { type?: string } }) {
  const ended = status === 'done' ? termination?.type : undefined;
  const tone = ended === 'error' ? 'failed' : ended === 'cancelled' ? 'cancelled' : status;
  return (
    <span className={`badge ${tone}`}>
      {ended && ended !== 'natural_end' ? `${status} · ${ended}` : status}
    </span>
  );
}

/** The tabs, as the runs API's filters (`running` includes runs not started yet). */
const TABS = {
  all: '',
  running: 'status=created,running',
  waiting: 'status=waiting',
  done: 'status=done',
  failed: 'status=done&termination=error',
} as const;
type Tab = keyof typeof TABS;
const PAGE_SIZE = 50;

interface Filters {
  q: string;
  threadId: string;
  agentId: string;
  tool: string;
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { q: '', threadId: '', agentId: '', tool: '', from: '', to: '' };

function queryOf(tab: Tab, filters: Filters, cursor: string | undefined): string {
  const params = new URLSearchParams(TABS[tab]);
  params.set('limit', String(PAGE_SIZE));
  for (const key of ['q', 'threadId', 'agentId', 'tool'] as const) {
    if (filters[key].trim()) params.set(key, filters[key].trim());
  }
  for (const key of ['from', 'to'] as const) {
    const ms = filters[key] ? new Date(filters[key]).getTime() : Number.NaN;
    if (Number.isFinite(ms) && ms >= 0) params.set(key, String(ms));
  }
  if (cursor) params.set('cursor', cursor);
  return `/v1/runs?${params}`;
}

/** How long a run took (or has been going): from its start (else creation) to its end (else now). */
function runDuration(run: any, now: number): string {
  const start = run.startedAt ?? run.createdAt;
  const end = run.finishedAt ?? (run.status === 'done' ? run.updatedAt : now);
  return duration(end - start);
}

/**
 * Every run of the tenant, newest first: status tabs, search by text, thread, agent, tool and time,
 * paging by the API's cursor (any number of runs), each row with its prompt, start time and duration.
 */
export function RunsPage() {
  const [tab, setTab] = useState<Tab>('all');
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // the cursors of the pages before the current one (empty: the first page)
  const [cursors, setCursors] = useState<(string | undefined)[]>([]);
  const cursor = cursors.at(-1);
  const runs = useApi<{ items: any[]; nextCursor?: string; scanned: number }>(queryOf(tab, filters, cursor));
  const { reload } = runs;
  const firstPage = cursors.length === 0;
  useEffect(() => {
    if (!firstPage) return;
    const timer = setInterval(reload, 5000);
    return () => clearInterval(timer);
  }, [reload, firstPage]);
  const items = runs.data?.items ?? [];
  const next = runs.data?.nextCursor;
  const now = Date.now();
  const filtered = Object.values(filters).some((value) => value.trim() !== '');

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setCursors([]);
  };

  return (
    <section aria-label="Runs">
      <div className="page-head">
        <div>
          <h1>Runs</h1>
          <p className="muted small">Every thread's runs, newest first.</p>
        </div>
      </div>
      <search aria-label="Search runs">
        <form className="search" onSubmit={search}>
          {(
            [
              ['q', 'Text', 'prompt, answer, error or id'],
              ['threadId', 'Thread', 'thread id'],
              ['agentId', 'Agent', 'agent id'],
              ['tool', 'Tool', 'tool name'],
            ] as const
          ).map(([key, label, placeholder]) => (
            <label key={key}>
              {label}
              <input
                value={draft[key]}
                placeholder={placeholder}
                onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
              />
            </label>
          ))}
          <label>
            Created from
            <input
              type="datetime-local"
              value={draft.from}
              onChange={(event) => setDraft({ ...draft, from: event.target.value })}
            />
          </label>
          <label>
            Created before
            <input
              type="datetime-local"
              value={draft.to}
              onChange={(event) => setDraft({ ...draft, to: event.target.value })}
            />
          </label>
          <div className="bulk">
            <button type="submit" className="primary">
              Search
            </button>
            {filtered ? (
              <button
                type="button"
                className="ghost"
                onClick={() => {
                  setDraft(NO_FILTERS);
                  setFilters(NO_FILTERS);
                  setCursors([]);
                }}
              >
                Clear
              </button>
            ) : null}
          </div>
        </form>
      </search>
      <div className="tabs" role="tablist" aria-label="Status">
        {(Object.keys(TABS) as Tab[]).map((value) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={tab === value}
            className={tab === value ? 'tab active' : 'tab'}
            onClick={() => {
              setTab(value);
              setCursors([]);
            }}
          >
            {value}
          </button>
        ))}
      </div>
      {runs.error ? <p className="error">{runs.error}</p> : null}
      {items.length === 0 && !runs.loading && !next ? (
        <div className="empty card">
          <h2>{filtered ? 'No run matches' : tab === 'all' ? 'No runs yet' : `No ${tab} runs`}</h2>
          <p className="muted">
            Start one in the <a href="#/chat">chat</a> — try <code>count to 20</code> to watch a run work.
          </p>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table runs-table">
            <thead>
              <tr>
                <th className="col-status">Status</th>
                <th>Run</th>
                <th className="col-agent hide-sm">Agent</th>
                <th className="col-time">Started</th>
                <th className="col-thread hide-sm">Thread</th>
              </tr>
            </thead>
            <tbody>
              {items.map((run) => (
                <tr key={run.runId} data-testid="run-row" data-status={run.status}>
                  <td>
                    <StatusBadge status={run.status} termination={run.termination} />
                  </td>
                  <td>
                    <div className="prompt" title={run.prompt ?? ''}>
                      {run.prompt ?? <span className="muted">(no prompt)</span>}
                    </div>
                    <div className="ids small">
                      <a href={`#/run/${encodeURIComponent(run.runId)}`}>
                        <code>{run.runId}</code>
                      </a>
                    </div>
                    {run.parentRunId ? (
                      <div className="muted small" data-testid="run-parent">
                        ↰ sub-agent of run{' '}
                        <a href={`#/run/${encodeURIComponent(run.parentRunId)}`}>
                          <code>{String(run.parentRunId).slice(0, 8)}</code>
                        </a>
                      </div>
                    ) : null}
                    {run.termination?.type === 'error' ? (
                      <div className="error small prompt">{run.termination.message}</div>
                    ) : run.response ? (
                      <div className="muted small prompt">→ {run.response}</div>
                    ) : null}
                  </td>
                  <td className="hide-sm">{run.agentId}</td>
                  <td>
                    <div className="small">{at(run.createdAt)}</div>
                    <div className="muted small">{runDuration(run, now)}</div>
                  </td>
                  <td className="hide-sm ids">
                    <a href={`#/chat/${encodeURIComponent(run.threadId)}`}>
                      <code className="small">{run.threadId}</code>
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Pages">
        <span className="muted small">
          Page {cursors.length + 1}
          {filtered && runs.data ? ` · ${runs.data.scanned} runs read` : ''}
          {filtered && next && items.length < PAGE_SIZE ? ' · more may match on the next pages' : ''}
        </span>
        <span className="bulk">
          <button
            type="button"
            className="ghost"
            disabled={firstPage}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            Previous page
          </button>
          <button
            type="button"
            className="ghost"
            disabled={!next}
            onClick={() => setCursors([...cursors, next])}
          >
            Next page
          </button>
        </span>
      </nav>
    </section>
  );
}
