import { useState } from 'react';
import { ago, useApi, useNow, when } from '../lib/hooks';
import { newChatHash } from './chat-page';

/** A thread as `GET /v1/threads` lists it, as far as the list reads it. */
interface ThreadRow {
  id: string;
  title?: string;
  activeRunId?: string;
  openRunId?: string;
  latestRunId?: string;
  /** A branch: the thread it branches from and the seq of the last message it shares. */
  branchOf?: { threadId: string; seq: number };
  createdAt: number;
  updatedAt: number;
}

const PAGE = 25;

/** What a thread's pointers say about it: a run waits, one runs, its last run finished, or none ran. */
function stateOf(thread: ThreadRow): { label: string; tone: string } | undefined {
  if (thread.openRunId) return { label: 'waiting', tone: 'waiting' };
  if (thread.activeRunId) return { label: 'running', tone: 'running' };
  if (thread.latestRunId) return { label: 'finished', tone: 'done' };
  return undefined;
}

/**
 * Every thread of the tenant, the one written last first (`GET /v1/threads?order=newest`), titled
 * with its first message, marked waiting / running / finished, in pages; each opens its chat.
 */
export function ThreadsPage() {
  // the cursors of the pages before this one (back), and this page's
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const list = useApi<{ items: ThreadRow[]; nextCursor?: string }>(
    `/v1/threads?order=newest&limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
  );
  const now = useNow(30_000);
  const items = list.data?.items;
  return (
    <section aria-label="Threads">
      <div className="page-head">
        <div>
          <h1>Threads</h1>
          <p className="muted small">
            Every conversation, the one written last first. Open one to continue it.
          </p>
        </div>
        <a className="button primary" href={newChatHash()}>
          New chat
        </a>
      </div>
      {list.error ? (
        <p className="error" role="alert">
          {list.error}
        </p>
      ) : null}
      {items && items.length === 0 && !cursor ? (
        <div className="empty card" data-testid="threads-empty">
          <h2>No conversations yet</h2>
          <p className="muted">
            <a href={newChatHash()}>Start a chat</a>: it shows up here with its first message as its title.
          </p>
        </div>
      ) : null}
      {items && items.length > 0 ? (
        <ol className="card thread-list" aria-label="Threads, newest first">
          {items.map((thread) => {
            const state = stateOf(thread);
            return (
              <li key={thread.id} className="thread-row" data-testid="thread-row" data-thread-id={thread.id}>
                <a className="thread-title" href={`#/chat/${encodeURIComponent(thread.id)}`}>
                  {thread.title ?? <span className="muted">Untitled · {thread.id}</span>}
                </a>
                <span className="thread-meta small muted">
                  {thread.branchOf ? (
                    <span className="badge created" title={`a branch of ${thread.branchOf.threadId}`}>
                      branch
                    </span>
                  ) : null}
                  {state ? <span className={`badge ${state.tone}`}>{state.label}</span> : null}
                  <time dateTime={new Date(thread.updatedAt).toISOString()} title={when(thread.updatedAt)}>
                    {ago(thread.updatedAt, now)} ago
                  </time>
                </span>
              </li>
            );
          })}
        </ol>
      ) : null}
      <nav className="pager" aria-label="Pages">
        <button
          type="button"
          className="ghost"
          disabled={cursors.length === 0}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          ← Newer
        </button>
        <button
          type="button"
          className="ghost"
          disabled={!list.data?.nextCursor}
          onClick={() => list.data?.nextCursor && setCursors([...cursors, list.data.nextCursor])}
        >
          Older →
        </button>
      </nav>
    </section>
  );
}
