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
 * the thread first, its source next, …) and the branches made from each of them and from their
 * branches in turn (`branches`, by thread id; at most {@link TREE} threads' lists are read).
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
/** How many threads' branch lists a family reads at most. */
const TREE = 64;

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
 * Loads a thread's family from the server: the thread, the threads it branches from, their branches
 * and the branches of those, level by level (one request per thread read, at most {@link TREE}).
 * Null when the thread does not exist (yet).
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
  // the branch lists of the chain, then of their branches, level by level
  const branches: Record<string, ThreadView[]> = {};
  let level = chain.map((thread) => thread.id);
  while (level.length > 0 && Object.keys(branches).length < TREE) {
    const ids = level.filter((next) => !(next in branches)).slice(0, TREE - Object.keys(branches).length);
    const lists = await Promise.all(ids.map((next) => allBranches(next)));
    ids.forEach((next, index) => {
      branches[next] = lists[index] ?? [];
    });
    level = lists.flat().map((branch) => branch.id);
  }
  return { chain, branches };
}

/**
 * The versions of the message at `seq` of the thread shown (`family.chain[0]`), as a switcher shows
 * them: the thread whose own history goes on at `seq` without branching there (the earliest version,
 * first), then every branch made at `seq - 1` from a thread sharing that history (the chain's threads
 * up to it, and their branches made at or after `seq - 1`, at any depth), oldest first. `current` is
 * the version the thread shown follows. Undefined when the message has a single version.
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
  // every thread sharing that history: those of the chain, and the branches made at or after `at`
  const versions: ThreadView[] = [];
  const seen = new Set<string>();
  const queue = chain.slice(0, root + 1).map((thread) => thread.id);
  while (queue.length > 0) {
    const id = queue.shift() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const branch of family.branches[id] ?? []) {
      const from = branch.branchOf?.seq ?? -1;
      if (from === at && branch.id !== rootThread.id) versions.push(branch);
      if (from >= at) queue.push(branch.id);
    }
  }
  versions.sort((a, b) => a.createdAt - b.createdAt);
  const threads = [...new Set([rootThread.id, ...versions.map((branch) => branch.id)])];
  if (threads.length < 2) return undefined;
  const shown = chain.find((thread) => threads.includes(thread.id));
  return { threads, current: Math.max(0, threads.indexOf(shown?.id ?? rootThread.id)) };
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
