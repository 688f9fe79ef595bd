import { api } from './api';

/** A thread as `GET /v1/threads/:id` (and its branch list) shows it, as far as branches need. */
export interface ThreadView {
  id: string;
  title?: string;
  /** The thread this one branches from, and the seq of the last message it shares with it. */
  branchOf?: { threadId: string; seq: number };
  createdAt: number;
}

/**
 * What the server says of a thread's branches: the thread and the threads it branches from (`chain`,
 * the thread first, its source next, …) and the branches made directly from each of them.
 */
export interface BranchFamily {
  chain: ThreadView[];
  branches: Record<string, ThreadView[]>;
}

/** The alternatives at one message: the threads that share the history before it and go on differently from it. */
export interface Alternatives {
  /** Thread ids, the earliest version first. */
  threads: string[];
  /** Which of them the thread shown follows. */
  current: number;
}

const DEPTH = 32;
const PAGES = 20;

async function allBranches(threadId: string): Promise<ThreadView[]> {
  const all: ThreadView[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < PAGES; page += 1) {
    const query = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const result = await api<{ items: ThreadView[]; nextCursor?: string }>(
      `/v1/threads/${encodeURIComponent(threadId)}/branches?${query}`,
    );
    all.push(...result.items);
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return all;
}

/**
 * Loads a thread's family from the server: the thread, the threads it branches from, and the
 * branches of each. Null when the thread does not exist (yet).
 */
export async function loadBranchFamily(threadId: string): Promise<BranchFamily | null> {
  const chain: ThreadView[] = [];
  let id: string | undefined = threadId;
  while (id && chain.length < DEPTH) {
    try {
      const thread: ThreadView = await api<ThreadView>(`/v1/threads/${encodeURIComponent(id)}`);
      chain.push(thread);
      id = thread.branchOf?.threadId;
    } catch (error) {
      if ((error as { status?: number }).status === 404 && chain.length === 0) return null;
      throw error;
    }
  }
  const lists = await Promise.all(chain.map((thread) => allBranches(thread.id)));
  return {
    chain,
    branches: Object.fromEntries(chain.map((thread, index) => [thread.id, lists[index] ?? []])),
  };
}

/**
 * The versions of the message at `seq` of the thread shown (`family.chain[0]`), as a switcher shows
 * them: every thread that shares its history before `seq` and has its own message there — the
 * earliest (the thread whose own history goes on at `seq` without branching there) first, then the
 * branches made at `seq - 1` from any thread sharing that history, oldest first. Undefined when there
 * is only one version.
 */
export function alternativesAt(family: BranchFamily, seq: number): Alternatives | undefined {
  const { chain } = family;
  const at = seq - 1;
  // the threads of the chain that share the history before `seq`, up to the one whose own message it is
  let root = 0;
  while (root < chain.length - 1) {
    const branchOf = chain[root]?.branchOf;
    if (!branchOf || branchOf.seq < at) break;
    root += 1;
  }
  const rootThread = chain[root];
  if (!rootThread) return undefined;
  const made: ThreadView[] = [];
  for (const thread of chain.slice(0, root + 1))
    for (const branch of family.branches[thread.id] ?? []) if (branch.branchOf?.seq === at) made.push(branch);
  made.sort((a, b) => a.createdAt - b.createdAt);
  const threads = [rootThread.id, ...made.map((branch) => branch.id).filter((id) => id !== rootThread.id)];
  const unique = [...new Set(threads)];
  if (unique.length < 2) return undefined;
  const current = chain.findIndex((thread) => unique.includes(thread.id));
  return { threads: unique, current: Math.max(0, unique.indexOf(chain[current]?.id ?? rootThread.id)) };
}

/**
 * Opens the branch a chat stream names (`data-awaken-thread`, sent when an edit or a regenerate ran
 * on a new branch of the thread `threadId`): the chat goes on there, at its own URL.
 */
export function goToBranch(part: { type: string; data?: unknown }, threadId: string): void {
  if (part.type !== 'data-awaken-thread') return;
  const branch = (part.data as { threadId?: string } | undefined)?.threadId;
  if (branch && branch !== threadId) window.location.hash = `#/chat/${encodeURIComponent(branch)}`;
}
