import { useCallback, useEffect, useRef, useState } from 'react';
import { ConfirmButton } from '../components/confirm-button';
import { Sparkline } from '../components/sparkline';
import { api } from '../lib/api';
import { ago } from '../lib/hooks';

const DISPATCH_STATUSES = ['queued', 'claimed', 'acked', 'dead_letter', 'cancelled', 'superseded'] as const;
const HISTORY = 30;

interface Sample {
  queued: number;
  claimed: number;
  waiting: number;
  runsPerSecond: number;
}

/** The dispatches of the most recent threads (the API lists dispatches per thread). */
async function recentDispatches(): Promise<any[]> {
  const threads = await api<{ items: { id: string }[] }>('/v1/threads?limit=50');
  const pages = await Promise.all(
    threads.items.map((thread) =>
      api<{ items: any[] }>(`/v1/threads/${encodeURIComponent(thread.id)}/dispatches?limit=200`),
    ),
  );
  return pages.flatMap((page) => page.items);
}

/** Dispatches by status, dead letters (requeue), purge, and a few live numbers as small charts. */
export function MailboxPage() {
  const [dispatches, setDispatches] = useState<any[]>([]);
  const [deadLetters, setDeadLetters] = useState<any[] | undefined>();
  const [status, setStatus] = useState<(typeof DISPATCH_STATUSES)[number]>('dead_letter');
  const [samples, setSamples] = useState<Sample[]>([]);
  const [notice, setNotice] = useState<string>();
  const lastDone = useRef<{ count: number; at: number } | undefined>(undefined);

  const refresh = useCallback(async () => {
    const [all, dead, waiting, done] = await Promise.all([
      recentDispatches(),
      api<{ items: any[] }>('/v1/mailbox/dead-letters?limit=100'),
      api<{ items: any[] }>('/v1/runs?status=waiting&limit=1000'),
      api<{ items: any[] }>('/v1/runs?status=done&limit=1000'),
    ]);
    setDispatches(all);
    setDeadLetters(dead.items);
    const now = Date.now();
    const previous = lastDone.current;
    const runsPerSecond =
      previous && now > previous.at
        ? Math.max(0, (done.items.length - previous.count) / ((now - previous.at) / 1000))
        : 0;
    lastDone.current = { count: done.items.length, at: now };
    const sample = {
      queued: all.filter((dispatch) => dispatch.status === 'queued').length,
      claimed: all.filter((dispatch) => dispatch.status === 'claimed').length,
      waiting: waiting.items.length,
      runsPerSecond,
    };
    setSamples((history) => [...history.slice(-(HISTORY - 1)), sample]);
  }, []);

  useEffect(() => {
    void refresh().catch(() => undefined);
    const timer = setInterval(() => void refresh().catch(() => undefined), 2000);
    return () => clearInterval(timer);
  }, [refresh]);

  const latest = samples.at(-1);
  const stats: { key: keyof Sample; label: string; format?: (n: number) => string }[] = [
    { key: 'queued', label: 'queued' },
    { key: 'claimed', label: 'claimed' },
    { key: 'waiting', label: 'waiting runs' },
    { key: 'runsPerSecond', label: 'runs/s', format: (n) => n.toFixed(1) },
  ];
  const shown = dispatches.filter((dispatch) => dispatch.status === status);

  return (
    <section aria-label="Mailbox">
      <div className="page-head">
        <div>
          <h1>Mailbox</h1>
          <p className="muted small">The durable queue every worker claims from.</p>
        </div>
        <ConfirmButton
          label="Purge old dispatches"
          question="Delete finished dispatches older than an hour?"
          tone="danger"
          onConfirm={async () => {
            const result = await api('/v1/mailbox/purge', { body: { olderThan: Date.now() - 3_600_000 } });
            setNotice(`Purged ${result.purged} finished dispatches.`);
            await refresh();
          }}
        />
      </div>
      {notice ? <p className="notice">{notice}</p> : null}
      <div className="stats">
        {stats.map((stat) => (
          <div key={stat.key} className="card stat" data-testid={`stat-${stat.key}`}>
            <div className="stat-label muted small">{stat.label}</div>
            <div className="stat-value">{latest ? (stat.format ?? String)(latest[stat.key]) : '–'}</div>
            <Sparkline
              values={samples.map((sample) => sample[stat.key])}
              label={`${stat.label} over the last minute`}
            />
          </div>
        ))}
      </div>

      <div className="card">
        <h2>Dead letters</h2>
        {deadLetters !== undefined && deadLetters.length === 0 ? (
          <p className="muted" data-testid="dead-letters-empty">
            No dead letters. A run whose model fails for good lands here — try <code>fail permanently</code>{' '}
            in the <a href="#/chat">chat</a>.
          </p>
        ) : null}
        <ul className="dead-letters">
          {(deadLetters ?? []).map((dead) => (
            <li key={dead.dispatchId} data-testid="dead-letter" data-run-id={dead.runId}>
              <div>
                <a href={`#/run/${encodeURIComponent(dead.runId)}`}>
                  <code>{dead.runId}</code>
                </a>{' '}
                <span className="muted small">
                  {dead.attemptCount}/{dead.maxAttempts} attempts · {ago(dead.updatedAt)} ago
                </span>
                <p className="error small">{dead.lastError ?? dead.runError ?? 'no error recorded'}</p>
              </div>
              {dead.requeuedRunId ? (
                <span className="small">
                  requeued as{' '}
                  <a href={`#/run/${encodeURIComponent(dead.requeuedRunId)}`} data-testid="requeued-run">
                    {dead.requeuedRunId}
                  </a>
                </span>
              ) : (
                <ConfirmButton
                  label="Requeue"
                  question="Run it again as a new run?"
                  tone="primary"
                  onConfirm={async () => {
                    const run = await api(
                      `/v1/mailbox/dead-letters/${encodeURIComponent(dead.dispatchId)}/requeue`,
                      {
                        method: 'POST',
                      },
                    );
                    setNotice(`Requeued as run ${run.runId}.`);
                    await refresh();
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      </div>

      <div className="card">
        <h2>Dispatches</h2>
        <div className="tabs" role="tablist" aria-label="Dispatch status">
          {DISPATCH_STATUSES.map((value) => (
            <button
              key={value}
              type="button"
              role="tab"
              aria-selected={status === value}
              className={status === value ? 'tab active' : 'tab'}
              onClick={() => setStatus(value)}
            >
              {value.replace('_', ' ')}{' '}
              <span className="muted">
                {dispatches.filter((dispatch) => dispatch.status === value).length}
              </span>
            </button>
          ))}
        </div>
        {shown.length === 0 ? (
          <p className="muted">No {status.replace('_', ' ')} dispatches in the recent threads.</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Dispatch</th>
                  <th>Run</th>
                  <th className="hide-sm">Attempts</th>
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                {shown.slice(0, 100).map((dispatch) => (
                  <tr key={dispatch.dispatchId}>
                    <td>
                      <code className="small">{dispatch.dispatchId}</code>
                    </td>
                    <td>
                      <a href={`#/run/${encodeURIComponent(dispatch.runId)}`}>
                        <code className="small">{dispatch.runId}</code>
                      </a>
                    </td>
                    <td className="hide-sm">{dispatch.attemptCount}</td>
                    <td className="muted">{ago(dispatch.updatedAt)} ago</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
