import { useEffect, useState } from 'react';
import { ago, useApi } from '../lib/hooks';

const STATUSES = ['running', 'waiting', 'done', 'created'] as const;

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

/** Runs of the tenant by status (and agent), newest first, refreshed while the page is open. */
export function RunsPage() {
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('done');
  const [agent, setAgent] = useState('');
  const query = `/v1/runs?status=${status}&limit=100${agent ? `&agentId=${encodeURIComponent(agent)}` : ''}`;
  const runs = useApi<{ items: any[] }>(query);
  const { reload } = runs;
  useEffect(() => {
    const timer = setInterval(reload, 5000);
    return () => clearInterval(timer);
  }, [reload]);
  const items = runs.data?.items ?? [];
  const agents = [...new Set([...(agent ? [agent] : []), 'demo', ...items.map((run) => run.agentId)])];

  return (
    <section aria-label="Runs">
      <div className="page-head">
        <div>
          <h1>Runs</h1>
          <p className="muted small">Every thread's runs, newest first.</p>
        </div>
        <div className="filters">
          <label htmlFor="agent-filter" className="sr-only">
            Agent
          </label>
          <select id="agent-filter" value={agent} onChange={(event) => setAgent(event.target.value)}>
            <option value="">all agents</option>
            {agents.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="tabs" role="tablist" aria-label="Status">
        {STATUSES.map((value) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={status === value}
            className={status === value ? 'tab active' : 'tab'}
            onClick={() => setStatus(value)}
          >
            {value}
          </button>
        ))}
      </div>
      {runs.error ? <p className="error">{runs.error}</p> : null}
      {items.length === 0 && !runs.loading ? (
        <div className="empty card">
          <h2>No {status} runs</h2>
          <p className="muted">
            Start one in the <a href="#/chat">chat</a> — try <code>count to 20</code> to watch a run work.
          </p>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Run</th>
                <th>Agent</th>
                <th>Status</th>
                <th className="hide-sm">Steps</th>
                <th className="hide-sm">Thread</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {items.map((run) => (
                <tr key={run.runId} data-testid="run-row">
                  <td>
                    <a href={`#/run/${encodeURIComponent(run.runId)}`}>
                      <code>{run.runId}</code>
                    </a>
                    {run.response ? <div className="muted small clip">{run.response}</div> : null}
                  </td>
                  <td>{run.agentId}</td>
                  <td>
                    <StatusBadge status={run.status} termination={run.termination} />
                  </td>
                  <td className="hide-sm">{run.steps}</td>
                  <td className="hide-sm">
                    <code className="small">{run.threadId}</code>
                  </td>
                  <td className="muted">{ago(run.updatedAt)} ago</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
