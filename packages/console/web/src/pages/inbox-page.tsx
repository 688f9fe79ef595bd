import { useEffect, useState } from 'react';
import { TicketForm, decisionResultOf } from '../components/ticket-form';
import { followSse } from '../lib/api';
import { decide } from '../lib/decide';
import { ago, useNow } from '../lib/hooks';
import { type Ticket, ticketKey } from '../lib/tickets';
interface InboxItem {
  runId: string;
  threadId: string;
  agentId: string;
  waitingSince: number;
  tickets: Ticket[];
}

/**
 * Every waiting ticket of the tenant, newest first, answerable here. Live: the server pushes the
 * inbox (`/v1/inbox/events`) whenever it changes. A ticket is named by its run and its ticket id
 * (ticket ids repeat across runs): answering one hides that run's card only, and an open form stays
 * with its own run's card.
 */
export function InboxPage() {
  const [items, setItems] = useState<InboxItem[] | undefined>();
  const [answered, setAnswered] = useState<Set<string>>(new Set());
  const [connected, setConnected] = useState(false);
  const now = useNow(1000);

  useEffect(() => {
    const controller = new AbortController();
    void followSse(
      '/v1/inbox/events',
      (frame) => {
        if (frame.event !== 'inbox') return;
        setConnected(true);
        setItems(JSON.parse(frame.data).items);
      },
      controller.signal,
      { reconnect: true },
    );
    return () => controller.abort();
  }, []);

  const tickets = (items ?? []).flatMap((item) =>
    item.tickets
      .filter((ticket) => !answered.has(ticketKey(item.runId, ticket.ticketId)))
      .map((ticket) => ({ item, ticket })),
  );
  const hide = (item: InboxItem, ticket: Ticket) =>
    setAnswered((previous) => new Set(previous).add(ticketKey(item.runId, ticket.ticketId)));

  return (
    <section aria-label="Approval inbox">
      <div className="page-head">
        <div>
          <h1>Inbox {tickets.length > 0 ? <span className="count">{tickets.length}</span> : null}</h1>
          <p className="muted small">
            Every tool call waiting for a human, across threads and runs, newest first.{' '}
            <span className={connected ? 'live' : 'muted'}>{connected ? '● live' : 'connecting…'}</span>
          </p>
        </div>
      </div>
      {items !== undefined && tickets.length === 0 ? (
        <div className="empty card" data-testid="inbox-empty">
          <h2>No run waits for a human</h2>
          <p className="muted">
            Try <code>delete /tmp/report.txt</code> in the <a href="#/chat">chat</a>: its approval shows up
            here at once.
          </p>
        </div>
      ) : null}
      <div className="inbox">
        {tickets.map(({ item, ticket }) => (
          <article
            key={ticketKey(item.runId, ticket.ticketId)}
            className="card inbox-item"
            data-testid="inbox-item"
            data-run-id={item.runId}
            data-ticket-id={ticket.ticketId}
            aria-label={`${ticket.toolName} in run ${item.runId}`}
          >
            <header className="inbox-meta">
              <span>
                <strong>{item.agentId}</strong> · thread{' '}
                <a href={`#/chat/${encodeURIComponent(item.threadId)}`}>{item.threadId}</a> · run{' '}
                <a href={`#/run/${encodeURIComponent(item.runId)}`}>
                  <code>{item.runId.slice(0, 8)}</code>
                </a>
              </span>
              <span className="muted small">waiting {ago(item.waitingSince, now)}</span>
            </header>
            {ticket.action === 'client_tool' ? (
              <div className="approval">
                <div className="approval-head">
                  <span className="badge waiting">client tool</span>
                  <code className="tool">{ticket.toolName}</code>
                </div>
                <p className="approval-message">{ticket.message}</p>
                <p className="muted small">
                  The client answers this one — open its{' '}
                  <a href={`#/chat/${encodeURIComponent(item.threadId)}`}>chat</a>.
                </p>
              </div>
            ) : (
              <TicketForm
                ticket={ticket}
                onAnswer={async (answer) => {
                  await decide(item.runId, ticket.ticketId, decisionResultOf(answer));
                  hide(item, ticket);
                }}
              />
            )}
          </article>
        ))}
      </div>
    </section>
  );
}
