import { useEffect, useState } from 'react';
import '../lists.css';
import '../notifications.css';
import { ApiError, api } from '../lib/api';
import { at } from '../lib/time';

/** A webhook delivery as `GET /v1/notifications/deliveries` lists it. */
interface Delivery {
  deliveryId: string;
  dispatchId: string;
  endpointId?: string;
  event?: string;
  status: string;
  attemptCount: number;
  maxAttempts: number;
  lastError?: string;
  nextAttemptAt?: number;
  createdAt: number;
  updatedAt: number;
  requeuedAs?: string;
  data?: { run?: { runId?: string; threadId?: string }; ticket?: { toolName?: string } };
}
interface Page {
  items: Delivery[];
  nextCursor?: string;
}

const STATUSES = ['queued', 'claimed', 'acked', 'cancelled', 'superseded'] as const;
const REFRESH_MS = 4000;
const label = (status: string) => (status === 'acked' ? 'delivered' : status.replace('_', ' '));

/** A page of deliveries of one status, reloaded with `tick`. */
function useDeliveries(status: string, tick: number): Page | undefined {
  const [page, setPage] = useState<Page>();
  useEffect(() => {
    let live = true;
    api<Page>(`/v1/notifications/deliveries?status=${status}&limit=50`)
      .then((answer) => live && setPage(answer))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [status, tick]);
  return page;
}

/** What a delivery is about: its event, the tool asked about, its run. */
function Subject({ delivery }: { delivery: Delivery }) {
  const runId = delivery.data?.run?.runId;
  const tool = delivery.data?.ticket?.toolName;
  return (
    <>
      <span className="badge" data-testid="delivery-event">
        {delivery.event ?? 'unknown event'}
      </span>{' '}
      {tool ? <code className="small">{tool}</code> : null}{' '}
      {runId ? (
        <a href={`#/run/${encodeURIComponent(runId)}`} className="small">
          run <code>{runId.slice(0, 12)}</code>
        </a>
      ) : null}
      <span className="muted small">
        {' '}
        → {delivery.endpointId ?? 'unknown endpoint'} · <code>{delivery.deliveryId}</code>
      </span>
    </>
  );
}

/**
 * The tenant's webhook deliveries (`/v1/notifications/deliveries`): dead letters first, each with its
 * last error and attempts and a Retry that calls `POST …/:dispatchId/retry` and shows the server's
 * answer (the new attempt, or why not: 409 when it is no longer a dead letter, 404 when gone); below,
 * the deliveries of any other status. A server without webhook endpoints lists none.
 */
export function NotificationsPage() {
  const [tick, setTick] = useState(0);
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('queued');
  const [answers, setAnswers] = useState<Record<string, { text: string; error?: boolean }>>({});
  const [busy, setBusy] = useState<string>();
  const dead = useDeliveries('dead_letter', tick);
  const listed = useDeliveries(status, tick);

  useEffect(() => {
    const timer = setInterval(() => setTick((value) => value + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  async function retry(delivery: Delivery) {
    setBusy(delivery.dispatchId);
    try {
      const next = await api<Delivery>(
        `/v1/notifications/deliveries/${encodeURIComponent(delivery.dispatchId)}/retry`,
        { method: 'POST' },
      );
      const when = next.nextAttemptAt ? `, next attempt ${at(next.nextAttemptAt)}` : '';
      const text = `Retried as ${next.dispatchId}: ${label(next.status)}, ${next.attemptCount}/${next.maxAttempts} attempts${when}.`;
      setAnswers((all) => ({ ...all, [delivery.dispatchId]: { text } }));
    } catch (failure) {
      const text =
        failure instanceof ApiError
          ? `Not retried (${failure.status} ${failure.code}): ${failure.message}`
          : `Not retried: ${(failure as Error).message}`;
      setAnswers((all) => ({ ...all, [delivery.dispatchId]: { text, error: true } }));
    } finally {
      setBusy(undefined);
      setTick((value) => value + 1);
    }
  }

  const deadItems = dead?.items ?? [];
  return (
    <section aria-label="Notifications">
      <div className="page-head">
        <div>
          <h1>Notifications</h1>
          <p className="muted small">
            Webhook deliveries of this tenant: each is retried with backoff, then dead-lettered.
          </p>
        </div>
      </div>

      <section className="card dead-deliveries" aria-label="Dead-lettered deliveries">
        <h2>
          Dead-lettered deliveries{' '}
          <span className="muted" data-testid="dead-delivery-count">
            {dead ? `${deadItems.length}${dead.nextCursor ? '+' : ''}` : '–'}
          </span>
        </h2>
        {dead && deadItems.length === 0 ? (
          <p className="muted" data-testid="dead-deliveries-empty">
            No dead-lettered deliveries: every notification reached its endpoint or is still being tried.
          </p>
        ) : null}
        <ul className="dead-letters">
          {deadItems.map((delivery) => {
            const answer = answers[delivery.dispatchId];
            return (
              <li
                key={delivery.dispatchId}
                data-testid="dead-delivery"
                data-delivery-id={delivery.deliveryId}
              >
                <div>
                  <Subject delivery={delivery} />
                  <div className="muted small">
                    {delivery.attemptCount}/{delivery.maxAttempts} attempts · dead-lettered{' '}
                    {at(delivery.updatedAt)}
                  </div>
                  <p className="error small" data-testid="delivery-error">
                    {delivery.lastError ?? 'no error recorded'}
                  </p>
                  {answer ? (
                    <p
                      className={answer.error ? 'notice error small' : 'notice small'}
                      role="status"
                      data-testid="retry-answer"
                    >
                      {answer.text}
                    </p>
                  ) : null}
                </div>
                {delivery.requeuedAs ? (
                  <span className="small" data-testid="retried-as">
                    retried as <code>{delivery.requeuedAs}</code>
                  </span>
                ) : (
                  <button
                    type="button"
                    className="primary"
                    disabled={busy === delivery.dispatchId}
                    aria-label={`Retry delivery ${delivery.deliveryId}`}
                    onClick={() => void retry(delivery)}
                  >
                    Retry
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      <section className="card" aria-label="Deliveries">
        <h2>Deliveries</h2>
        <div className="tabs" role="tablist" aria-label="Delivery status">
          {STATUSES.map((value) => (
            <button
              key={value}
              type="button"
              role="tab"
              aria-selected={status === value}
              className={status === value ? 'tab active' : 'tab'}
              onClick={() => setStatus(value)}
            >
              {label(value)}
            </button>
          ))}
        </div>
        {listed && listed.items.length === 0 ? (
          <p className="muted">No {label(status)} deliveries.</p>
        ) : (
          <div className="table-wrap">
            <table className="table runs-table">
              <thead>
                <tr>
                  <th>Delivery</th>
                  <th className="hide-sm">Attempts</th>
                  <th className="col-time">Updated</th>
                </tr>
              </thead>
              <tbody>
                {(listed?.items ?? []).map((delivery) => (
                  <tr
                    key={delivery.dispatchId}
                    data-testid="delivery-row"
                    data-delivery-id={delivery.deliveryId}
                  >
                    <td>
                      <Subject delivery={delivery} />
                      {delivery.lastError ? <div className="error small">{delivery.lastError}</div> : null}
                    </td>
                    <td className="hide-sm">
                      {delivery.attemptCount}/{delivery.maxAttempts}
                    </td>
                    <td className="muted small">{at(delivery.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </section>
  );
}
