import { useEffect, useRef, useState } from 'react';
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

  // triage by keyboard: j / k select the next / previous question, a approves it, d denies it
  const [selected, setSelected] = useState<string>();
  const list = useRef<HTMLDivElement>(null);
  const keys = tickets.map(({ item, ticket }) => ticketKey(item.runId, ticket.ticketId));
  const keysRef = useRef(keys);
  keysRef.current = keys;
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  useEffect(() => {
    function card(key: string | undefined): HTMLElement | undefined {
      if (key === undefined) return undefined;
      return [...(list.current?.querySelectorAll<HTMLElement>('[data-testid="inbox-item"]') ?? [])].find(
        (element) => element.dataset.key === key,
      );
    }
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      const all = keysRef.current;
      if (all.length === 0) return;
      const at = selectedRef.current === undefined ? -1 : all.indexOf(selectedRef.current);
      if (event.key === 'j' || event.key === 'k') {
        event.preventDefault();
        const next = event.key === 'j' ? Math.min(all.length - 1, at + 1) : Math.max(0, at < 0 ? 0 : at - 1);
        const key = all[next];
        setSelected(key);
        const element = card(key);
        element?.focus({ preventScroll: true });
        element?.scrollIntoView?.({ block: 'nearest' });
        return;
      }
      if (event.key !== 'a' && event.key !== 'd') return;
      const element = card(selectedRef.current);
      if (!element) return;
      const name = event.key === 'a' ? 'Approve' : 'Deny';
      const button = [...element.querySelectorAll('button')].find(
        (candidate) => candidate.textContent?.trim() === name && !candidate.disabled,
      );
      if (!button) return;
      event.preventDefault();
      button.click();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section aria-label="Approval inbox">
      <div className="page-head">
        <div>
          <h1>Inbox {tickets.length > 0 ? <span className="count">{tickets.length}</span> : null}</h1>
          <p className="muted small">
            Every tool call waiting for a human, across threads and runs, newest first.{' '}
            <span className={connected ? 'live' : 'muted'}>{connected ? '● live' : 'connecting…'}</span>
          </p>
          <p className="shortcuts muted small">
            <span className="sr-only">Keyboard shortcuts:</span>
            <span>
              <kbd>j</kbd> / <kbd>k</kbd> next / previous question
            </span>
            <span>
              <kbd>a</kbd> approve
            </span>
            <span>
              <kbd>d</kbd> deny
            </span>
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
      <div className="inbox" ref={list}>
        {tickets.map(({ item, ticket }) => (
          <article
            key={ticketKey(item.runId, ticket.ticketId)}
            className={`card inbox-item${selected === ticketKey(item.runId, ticket.ticketId) ? ' selected' : ''}`}
            data-testid="inbox-item"
            data-key={ticketKey(item.runId, ticket.ticketId)}
            tabIndex={-1}
            aria-current={selected === ticketKey(item.runId, ticket.ticketId) ? 'true' : undefined}
            onFocus={(event) => {
              if (event.target === event.currentTarget) setSelected(ticketKey(item.runId, ticket.ticketId));
            }}
            data-run-id={item.runId}
            data-ticket-id={ticket.ticketId}
            aria-label={`${ticket.nested?.toolName ?? ticket.toolName} in run ${item.runId}`}
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
                runId={item.runId}
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
