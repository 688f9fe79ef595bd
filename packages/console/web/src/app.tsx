import { useEffect, useState } from 'react';
import { TokenGate } from './components/token-gate';
import { api, onUnauthorized, token } from './lib/api';
import { usePageTitle, useRoute } from './lib/hooks';
import { ChatPage } from './pages/chat-page';
import { InboxPage } from './pages/inbox-page';
import { MailboxPage } from './pages/mailbox-page';
import { NotFoundPage } from './pages/not-found-page';
import { NotificationsPage } from './pages/notifications-page';
import { RunPage } from './pages/run-page';
import { RunsPage } from './pages/runs-page';
import { ThreadsPage } from './pages/threads-page';

const NAV = [
  { id: 'chat', label: 'Chat' },
  { id: 'threads', label: 'Threads' },
  { id: 'inbox', label: 'Inbox' },
  { id: 'runs', label: 'Runs' },
  { id: 'mailbox', label: 'Mailbox' },
  { id: 'notifications', label: 'Notifications' },
] as const;

/** The title of each view (the tab shows it); a route the console does not know is "Not found". */
function titleOf(route: string[]): string {
  const [page = 'chat', id] = route;
  if (page === 'run') return id ? `Run ${id.slice(0, 8)}` : 'Not found';
  // a page's own sub-routes (a run's id, a chat's thread) belong to it; an unknown page is not found
  return NAV.find((item) => item.id === page)?.label ?? 'Not found';
}

/** The console shell: navigation, the token prompt when the server asks for one, and the pages. */
export function App() {
  const route = useRoute();
  const page = route[0] ?? 'chat';
  const title = titleOf(route);
  usePageTitle(title);
  const [needsToken, setNeedsToken] = useState(false);
  const [session, setSession] = useState(0);

  useEffect(() => onUnauthorized(() => setNeedsToken(true)), []);
  useEffect(() => {
    api('/v1/inbox?limit=1')
      .then(() => setNeedsToken(false))
      .catch(() => undefined);
  }, [session]);

  if (needsToken) {
    return (
      <TokenGate
        onToken={(value) => {
          token.set(value);
          setNeedsToken(false);
          setSession((value) => value + 1);
        }}
      />
    );
  }
  return (
    <div className="shell" key={session}>
      <header className="topbar">
        <a className="brand" href="#/chat">
          <span className="logo" aria-hidden="true">
            A
          </span>
          Awaken
        </a>
        <nav aria-label="Console">
          {NAV.map((item) => (
            <a
              key={item.id}
              href={`#/${item.id}`}
              className={page === item.id || (page === 'run' && item.id === 'runs') ? 'active' : ''}
              aria-current={page === item.id ? 'page' : undefined}
            >
              {item.label}
            </a>
          ))}
        </nav>
        {token.get() ? (
          <button
            type="button"
            className="ghost small"
            onClick={() => {
              token.clear();
              setNeedsToken(true);
            }}
          >
            Sign out
          </button>
        ) : null}
      </header>
      <main className="content">
        {page === 'chat' ? <ChatPage threadId={route[1]} /> : null}
        {page === 'inbox' ? <InboxPage /> : null}
        {page === 'runs' ? <RunsPage /> : null}
        {page === 'run' && route[1] ? <RunPage runId={route[1]} /> : null}
        {page === 'mailbox' ? <MailboxPage /> : null}
        {page === 'threads' ? <ThreadsPage /> : null}
        {page === 'notifications' ? <NotificationsPage /> : null}
        {title === 'Not found' ? <NotFoundPage path={route.join('/')} /> : null}
      </main>
    </div>
  );
}
