import { useEffect, useState } from 'react';
import { ApprovalCard } from '../components/approval-card';
import { api, followSse } from '../lib/api';
import { ago, useNow } from '../lib/hooks';

interface Ticket {
  ticketId: string;
  toolCallId: string;
  toolName: string;
  action: string;
  message: string;
  arguments?: unknown;
  expiresAt?: number;
}
interface InboxItem {
  runId: string;
  threadId: string;
  agentId: string;
  waitingSince: number;
  tickets: Ticket[];
}

/**
 * Every waiting ticket of the tenant, newest first, answerable here. Live: the server pushes the
 * inbox (`/v1/inbox/events`) whenever it changes.
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
    item.tickets.filter((ticket) => !answered.has(ticket.ticketId)).map((ticket) => ({ item, ticket })),
  );

  async function decide(item: InboxItem, ticket: Ticket, result: unknown) {
    await api(`/v1/runs/${encodeURIComponent(item.runId)}/decision`, {
      body: { ticketId: ticket.ticketId, result },
    });
    setAnswered((previous) => new Set(previous).add(ticket.ticketId));
  }

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
            key={ticket.ticketId}
            className="card inbox-item"
            data-testid="inbox-item"
            data-run-id={item.runId}
          >
            <header className="inbox-meta">
              <span>
                <strong>{item.agentId}</strong> · thread{' '}
                <a href={`#/chat/${encodeURIComponent(item.threadId)}`}>{item.threadId}</a> · run{' '}
                <a href={`#/run/${encodeURIComponent(item.runId)}`}>
                  <code>{item.runId.slice(0, 8)}</code>
                </a>
              </span>
              <span className="muted small">
                waiting {ago(item.waitingSince, now)}
                {ticket.expiresAt ? ` · expires in ${ago(now - (ticket.expiresAt - now), now)}` : ''}
              </span>
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
              <ApprovalCard
                toolName={ticket.toolName}
                args={ticket.arguments}
                message={ticket.message}
                onAnswer={(answer) =>
                  decide(item, ticket, {
                    approved: answer.approved,
                    ...(answer.reason ? { reason: answer.reason } : {}),
                    ...(answer.editedArguments !== undefined
                      ? { editedArguments: answer.editedArguments }
                      : {}),
                  })
                }
              />
            )}
          </article>
        ))}
      </div>
    </section>
  );
}
