/** What an unknown console route shows: where the reader is, and the way back. */
export function NotFoundPage({ path }: { path: string }) {
  return (
    <section aria-label="Not found" className="card empty not-found">
      <h1>Page not found</h1>
      <p className="muted">
        The console has no page at <code>#/{path}</code>.
      </p>
      <p>
        <a href="#/chat">Start a chat</a> · <a href="#/threads">Threads</a> · <a href="#/inbox">Inbox</a> ·{' '}
        <a href="#/runs">Runs</a>
      </p>
    </section>
  );
}
