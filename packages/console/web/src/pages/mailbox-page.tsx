import { useCallback, useEffect, useRef, useState } from 'react';
import '../lists.css';
import '../notifications.css';
import { ConfirmButton } from '../components/confirm-button';
import { Sparkline } from '../components/sparkline';
import { ApiError, api } from '../lib/api';
import { useApi } from '../lib/hooks';
import { at } from '../lib/time';

const DISPATCH_STATUSES = ['queued', 'claimed', 'acked', 'dead_letter', 'cancelled', 'superseded'] as const;
type DispatchStatus = (typeof DISPATCH_STATUSES)[number];
const TERMINAL: readonly DispatchStatus[] = ['acked', 'dead_letter', 'cancelled', 'superseded'];
const HISTORY = 30;
const REFRESH_MS = 4000;
const PAGE_SIZE = 25;

type Counts = Record<DispatchStatus, number>;
/** A dead letter retry-all could not requeue now, and why (the server's `failed` item). */
interface RetryFailure {
  dispatchId: string;
  code: string;
  message: string;
}
/** What the last action said; `failed`: the dead letters a retry-all left, listed. */
interface Notice {
  text: string;
  error?: boolean;
  failed?: RetryFailure[];
}
interface Page {
  items: any[];
  nextCursor?: string;
}
interface Sample {
  queued: number;
  claimed: number;
  waiting: number;
  ackedPerSecond: number;
}

const label = (status: DispatchStatus) => status.replace('_', ' ');
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A list of dispatches of one status, paged by the API's cursor (the cursors of earlier pages kept). */
function usePaged(status: DispatchStatus, tick: number) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([]);
  const [page, setPage] = useState<Page>();
  const cursor = cursors.at(-1);
  useEffect(() => {
    let live = true;
    const params = new URLSearchParams({ status, limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) });
    api<Page>(`/v1/mailbox/dispatches?${params}`)
      .then((answer) => live && setPage(answer))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [status, cursor, tick]);
  return {
    page,
    number: cursors.length + 1,
    previous: cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined,
    next: page?.nextCursor ? () => setCursors([...cursors, page.nextCursor]) : undefined,
    reset: () => setCursors([]),
  };
}

/**
 * The mailbox from the server's tenant-wide view: counts by status, dead letters and any status's
 * dispatches paged, a dispatch's detail (attempts, errors, links to its run and thread), and the bulk
 * actions (retry all dead letters, purge all of a finished status), each confirmed with the count
 * shown. Every refresh makes the same few requests, whatever the number of threads.
 */
export function MailboxPage() {
  const [tick, setTick] = useState(0);
  const [counts, setCounts] = useState<Counts>();
  const [countedAt, setCountedAt] = useState<number>();
  const [samples, setSamples] = useState<Sample[]>([]);
  const [status, setStatus] = useState<DispatchStatus>('queued');
  const [selected, setSelected] = useState<string>();
  const [notice, setNotice] = useState<Notice>();
  const lastAcked = useRef<{ count: number; at: number } | undefined>(undefined);
  const dead = usePaged('dead_letter', tick);
  const listed = usePaged(status, tick);

  const refresh = useCallback(async () => {
    const [view, waiting] = await Promise.all([
      api<{ counts: Counts; at: number }>('/v1/mailbox/counts'),
      api<Page>('/v1/runs?status=waiting&limit=1000'),
    ]);
    setCounts(view.counts);
    setCountedAt(view.at);
    const previous = lastAcked.current;
    const ackedPerSecond =
      previous && view.at > previous.at
        ? Math.max(0, (view.counts.acked - previous.count) / ((view.at - previous.at) / 1000))
        : 0;
    lastAcked.current = { count: view.counts.acked, at: view.at };
    const sample = {
      queued: view.counts.queued,
      claimed: view.counts.claimed,
      waiting: waiting.items.length,
      ackedPerSecond,
    };
    setSamples((history) => [...history.slice(-(HISTORY - 1)), sample]);
  }, []);

  useEffect(() => {
    void refresh().catch(() => undefined);
    const timer = setInterval(() => {
      void refresh().catch(() => undefined);
      setTick((value) => value + 1);
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  const refreshAll = async () => {
    setTick((value) => value + 1);
    await refresh();
  };
  /** Runs a bulk action; a 409 (the count changed) is shown with the new count, then everything reloads. */
  const bulk = async (action: () => Promise<string | Notice>) => {
    try {
      const done = await action();
      setNotice(typeof done === 'string' ? { text: done } : done);
    } catch (failure) {
      if (!(failure instanceof ApiError) || failure.status !== 409) throw failure;
      setNotice({ text: failure.message, error: true });
    }
    dead.reset();
    listed.reset();
    await refreshAll();
  };

  const latest = samples.at(-1);
  const stats: { key: keyof Sample; label: string; format?: (n: number) => string }[] = [
    { key: 'queued', label: 'queued' },
    { key: 'claimed', label: 'claimed' },
    { key: 'waiting', label: 'waiting runs', format: (n) => (n >= 1000 ? '1000+' : String(n)) },
    { key: 'ackedPerSecond', label: 'acked/s', format: (n) => n.toFixed(1) },
  ];
  const deadCount = counts?.dead_letter ?? 0;
  // a dead letter retry-all could not requeue has its new ids reserved but no run: offer Requeue again
  const refused = new Set(notice?.failed?.map((item) => item.dispatchId));
  const statusCount = counts?.[status] ?? 0;

  return (
    <section aria-label="Mailbox">
      <div className="page-head">
        <div>
          <h1>Mailbox</h1>
          <p className="muted small">
            The durable queue every worker claims from
            {countedAt ? ` · counted at ${at(countedAt)}` : ''}.
          </p>
        </div>
      </div>
      {notice ? (
        <div className={notice.error ? 'notice error' : 'notice'} role="status">
          {notice.text}
          {notice.failed?.length ? (
            <ul className="retry-failed" data-testid="retry-failed">
              {notice.failed.map((item) => (
                <li key={item.dispatchId} data-dispatch-id={item.dispatchId}>
                  <code>{item.dispatchId}</code> ({item.code}): {item.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <div className="stats">
        {stats.map((stat) => (
          <div key={stat.key} className="card stat" data-testid={`stat-${stat.key}`}>
            <div className="stat-label muted small">{stat.label}</div>
            <div className="stat-value">{latest ? (stat.format ?? String)(latest[stat.key]) : '–'}</div>
            <Sparkline
              values={samples.map((sample) => sample[stat.key])}
              label={`${stat.label} over the last two minutes`}
            />
          </div>
        ))}
      </div>

      <section className="card" aria-label="Dead letters">
        <div className="page-head">
          <h2>
            Dead letters{' '}
            <span className="muted" data-testid="dead-letter-count">
              {counts ? deadCount : '–'}
            </span>
          </h2>
          {deadCount > 0 ? (
            <div className="bulk">
              <ConfirmButton
                label={`Retry all ${deadCount}`}
                question={`Requeue ${plural(deadCount, 'dead letter')} as new runs?`}
                tone="primary"
                onConfirm={() =>
                  bulk(async () => {
                    const result = await api('/v1/mailbox/dead-letters/retry-all', {
                      body: { expectedCount: deadCount },
                    });
                    const again = result.alreadyRequeued
                      ? ` (${result.alreadyRequeued} were requeued before)`
                      : '';
                    const text = `Requeued ${plural(result.requeued.length, 'dead letter')}${again}.`;
                    const failed: RetryFailure[] = result.failed ?? [];
                    if (failed.length === 0) return text;
                    return {
                      text: `${text} ${plural(failed.length, 'dead letter')} could not be requeued now:`,
                      error: true,
                      failed,
                    };
                  })
                }
              />
              <ConfirmButton
                label={`Purge all ${deadCount}`}
                question={`Delete ${plural(deadCount, 'dead letter')} for good?`}
                tone="danger"
                onConfirm={() =>
                  bulk(async () => {
                    const result = await api('/v1/mailbox/dispatches/purge-all', {
                      body: { status: 'dead_letter', expectedCount: deadCount },
                    });
                    return `Purged ${plural(result.purged, 'dead letter')}.`;
                  })
                }
              />
            </div>
          ) : null}
        </div>
        {dead.page !== undefined && dead.page.items.length === 0 && !dead.previous ? (
          <p className="muted" data-testid="dead-letters-empty">
            No dead letters. A run whose model fails for good lands here — try <code>fail permanently</code>{' '}
            in the <a href="#/chat">chat</a>.
          </p>
        ) : null}
        <ul className="dead-letters">
          {(dead.page?.items ?? []).map((letter) => (
            <li key={letter.dispatchId} data-testid="dead-letter" data-run-id={letter.runId}>
              <div>
                <a href={`#/run/${encodeURIComponent(letter.runId)}`}>
                  <code>{letter.runId}</code>
                </a>{' '}
                <span className="muted small">
                  {letter.attemptCount}/{letter.maxAttempts} attempts · {at(letter.updatedAt)}
                </span>
                <p className="error small">{letter.lastError ?? letter.runError ?? 'no error recorded'}</p>
                <DetailToggle id={letter.dispatchId} selected={selected} onSelect={setSelected} />
                {selected === letter.dispatchId ? <DispatchDetail dispatchId={letter.dispatchId} /> : null}
              </div>
              {letter.requeuedRunId && !refused.has(letter.dispatchId) ? (
                <span className="small">
                  requeued as{' '}
                  <a href={`#/run/${encodeURIComponent(letter.requeuedRunId)}`} data-testid="requeued-run">
                    {letter.requeuedRunId}
                  </a>
                </span>
              ) : (
                <ConfirmButton
                  label="Requeue"
                  question="Run it again as a new run?"
                  tone="primary"
                  onConfirm={async () => {
                    const run = await api(
                      `/v1/mailbox/dead-letters/${encodeURIComponent(letter.dispatchId)}/requeue`,
                      { method: 'POST' },
                    );
                    setNotice({ text: `Requeued as run ${run.runId}.` });
                    await refreshAll();
                  }}
                />
              )}
            </li>
          ))}
        </ul>
        <Pager label="Dead letter pages" paged={dead} />
      </section>

      <section className="card" aria-label="Dispatches">
        <div className="page-head">
          <h2>Dispatches</h2>
          {TERMINAL.includes(status) && statusCount > 0 ? (
            <ConfirmButton
              label={`Purge all ${statusCount} ${label(status)}`}
              question={`Delete ${plural(statusCount, `${label(status)} dispatch`)} for good?`}
              tone="danger"
              onConfirm={() =>
                bulk(async () => {
                  const result = await api('/v1/mailbox/dispatches/purge-all', {
                    body: { status, expectedCount: statusCount },
                  });
                  return `Purged ${plural(result.purged, `${label(status)} dispatch`)}.`;
                })
              }
            />
          ) : null}
        </div>
        <div className="tabs" role="tablist" aria-label="Dispatch status">
          {DISPATCH_STATUSES.map((value) => (
            <button
              key={value}
              type="button"
              role="tab"
              aria-selected={status === value}
              className={status === value ? 'tab active' : 'tab'}
              data-testid={`count-${value}`}
              data-count={counts?.[value] ?? ''}
              onClick={() => {
                setStatus(value);
                listed.reset();
              }}
            >
              {label(value)} <span className="muted">{counts ? counts[value] : '–'}</span>
            </button>
          ))}
        </div>
        {listed.page !== undefined && listed.page.items.length === 0 ? (
          <p className="muted">No {label(status)} dispatches.</p>
        ) : (
          <div className="table-wrap">
            <table className="table runs-table">
              <thead>
                <tr>
                  <th>Dispatch</th>
                  <th className="col-agent hide-sm">Attempts</th>
                  <th className="col-time">Updated</th>
                </tr>
              </thead>
              <tbody>
                {(listed.page?.items ?? []).map((dispatch) => (
                  <tr key={dispatch.dispatchId} data-testid="dispatch-row">
                    <td>
                      <div className="ids">
                        <a href={`#/run/${encodeURIComponent(dispatch.runId)}`}>
                          <code className="small">{dispatch.runId}</code>
                        </a>
                      </div>
                      <DetailToggle id={dispatch.dispatchId} selected={selected} onSelect={setSelected} />
                      {selected === dispatch.dispatchId ? (
                        <DispatchDetail dispatchId={dispatch.dispatchId} />
                      ) : null}
                    </td>
                    <td className="hide-sm">
                      {dispatch.attemptCount}/{dispatch.maxAttempts}
                    </td>
                    <td className="muted small">{at(dispatch.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager label="Dispatch pages" paged={listed} />
      </section>
    </section>
  );
}

function Pager({ label: name, paged }: { label: string; paged: ReturnType<typeof usePaged> }) {
  if (!paged.previous && !paged.next) return null;
  return (
    <nav className="pager" aria-label={name}>
      <span className="muted small">Page {paged.number}</span>
      <span className="bulk">
        <button type="button" className="ghost" disabled={!paged.previous} onClick={paged.previous}>
          Newer
        </button>
        <button type="button" className="ghost" disabled={!paged.next} onClick={paged.next}>
          Older
        </button>
      </span>
    </nav>
  );
}

function DetailToggle(props: { id: string; selected?: string; onSelect: (id?: string) => void }) {
  const open = props.selected === props.id;
  return (
    <button
      type="button"
      className="ghost small"
      aria-expanded={open}
      aria-label={`Details of dispatch ${props.id}`}
      onClick={() => props.onSelect(open ? undefined : props.id)}
    >
      {open ? 'Hide details' : 'Details'}
    </button>
  );
}

/** One dispatch as the server has it: attempts, errors, lease, the run's outcome, links. */
function DispatchDetail({ dispatchId }: { dispatchId: string }) {
  const { data: dispatch, error } = useApi<any>(`/v1/mailbox/dispatches/${encodeURIComponent(dispatchId)}`);
  if (error) return <p className="error small">{error}</p>;
  if (!dispatch) return <p className="muted small">Loading…</p>;
  const rows: [string, React.ReactNode][] = [
    ['Dispatch', <code key="id">{dispatch.dispatchId}</code>],
    ['Status', dispatch.status.replace('_', ' ')],
    ['Attempts', `${dispatch.attemptCount} of ${dispatch.maxAttempts}`],
    ['Last error', dispatch.lastError ?? '—'],
    ['Run error', dispatch.runError ?? '—'],
    ['Run outcome', dispatch.termination ? dispatch.termination.type : (dispatch.runStatus ?? '—')],
    ['Priority', String(dispatch.priority)],
    ['Enqueued', at(dispatch.createdAt)],
    ['Available', at(dispatch.availableAt)],
    ['Updated', at(dispatch.updatedAt)],
    ...(dispatch.leaseUntil ? ([['Lease until', at(dispatch.leaseUntil)]] as [string, string][]) : []),
    ...(dispatch.completedAt ? ([['Completed', at(dispatch.completedAt)]] as [string, string][]) : []),
    [
      'Run',
      <a key="run" href={`#/run/${encodeURIComponent(dispatch.runId)}`}>
        {dispatch.runId}
      </a>,
    ],
    [
      'Thread',
      <a key="thread" href={`#/chat/${encodeURIComponent(dispatch.threadId)}`}>
        {dispatch.threadId}
      </a>,
    ],
  ];
  if (dispatch.requeuedRunId) {
    rows.push([
      'Requeued as',
      <a key="requeued" href={`#/run/${encodeURIComponent(dispatch.requeuedRunId)}`}>
        {dispatch.requeuedRunId}
      </a>,
    ]);
  }
  return (
    <dl className="detail" aria-label={`Dispatch ${dispatch.dispatchId}`}>
      {rows.map(([name, value]) => (
        <div key={name} style={{ display: 'contents' }}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
