import { useEffect, useState } from 'react';
import { type Alternatives, type BranchFamily, loadBranchFamily } from '../lib/branches';
import { useApi } from '../lib/hooks';
import '../branches.css';

/**
 * The branch family of a thread as the server has it, loaded again when `version` changes; not
 * asked for while `version` is undefined (a thread the server does not hold yet).
 */
export function useBranchFamily(threadId: string, version: unknown): BranchFamily | undefined {
  const [family, setFamily] = useState<{ threadId: string; family: BranchFamily }>();
  useEffect(() => {
    if (version === undefined) return;
    let live = true;
    loadBranchFamily(threadId)
      .then((loaded) => live && loaded && setFamily({ threadId, family: loaded }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [threadId, version]);
  return family?.threadId === threadId ? family.family : undefined;
}

const chatHref = (threadId: string) => `#/chat/${encodeURIComponent(threadId)}`;

/** A message record of the thread log, as far as a one-line quote needs. */
interface QuotedRecord {
  seq: number;
  message: { role: string; content?: unknown; text?: string; toolName?: string };
}

function quote(record: QuotedRecord | undefined): string {
  const message = record?.message;
  if (!message) return '';
  const text =
    typeof message.content === 'string'
      ? message.content
      : message.text || (message.toolName ? `${message.toolName} result` : '');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * Where a branch comes from: its source thread (a link) and the message it branched after (its
 * seq and a quote of it, as the source's log has it). Nothing for a thread that is no branch.
 */
export function BranchOrigin({ family }: { family: BranchFamily | undefined }) {
  const branchOf = family?.chain[0]?.branchOf;
  const shared = useApi<{ items: QuotedRecord[] }>(
    branchOf && branchOf.seq > 0
      ? `/v1/threads/${encodeURIComponent(branchOf.threadId)}/messages?after=${branchOf.seq - 1}&limit=1`
      : null,
  );
  if (!branchOf) return null;
  const text = quote(shared.data?.items.find((item) => item.seq === branchOf.seq));
  return (
    <p className="branch-origin small" data-testid="branch-origin">
      <span className="badge created">branch</span> of thread{' '}
      <a href={chatHref(branchOf.threadId)} data-testid="branch-source">
        {branchOf.threadId}
      </a>{' '}
      {branchOf.seq === 0 ? (
        'before its first message'
      ) : (
        <>
          after message <span data-testid="branch-seq">#{branchOf.seq}</span>
          {text ? <span className="muted"> “{text}”</span> : null}
        </>
      )}
    </p>
  );
}

/** The branches made from the thread shown, oldest first, each a link with the message it was made at. */
export function BranchList({ family }: { family: BranchFamily | undefined }) {
  const self = family?.chain[0];
  const branches = self ? (family?.branches[self.id] ?? []) : [];
  if (branches.length === 0) return null;
  return (
    <div className="small" data-testid="branch-list">
      <span className="muted">
        {branches.length} branch{branches.length === 1 ? '' : 'es'} of this thread:
      </span>
      <ul className="branch-list">
        {branches.map((branch) => (
          <li key={branch.id} data-testid="branch-item" data-thread-id={branch.id}>
            <a href={chatHref(branch.id)} title={branch.id}>
              {branch.id.length > 16 ? <code>{branch.id.slice(0, 8)}</code> : branch.id}
            </a>{' '}
            <span className="muted">
              {branch.branchOf?.seq ? `after message #${branch.branchOf.seq}` : 'from the start'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * ChatGPT's "‹ 2/3 ›" under a message with other versions: the threads that go on differently from
 * it (made by an edit or a regenerate), switching opens that thread.
 */
export function BranchSwitcher({ alternatives }: { alternatives: Alternatives | undefined }) {
  if (!alternatives) return null;
  const { threads, current } = alternatives;
  const go = (index: number) => {
    const target = threads[index];
    if (target) window.location.hash = chatHref(target);
  };
  return (
    <fieldset className="branch-switcher" data-testid="branch-switcher" aria-label="Versions">
      <button
        type="button"
        className="ghost"
        aria-label="Previous version"
        disabled={current === 0}
        onClick={() => go(current - 1)}
      >
        ‹
      </button>
      <span data-testid="branch-position">
        {current + 1}/{threads.length}
      </span>
      <button
        type="button"
        className="ghost"
        aria-label="Next version"
        disabled={current === threads.length - 1}
        onClick={() => go(current + 1)}
      >
        ›
      </button>
    </fieldset>
  );
}
