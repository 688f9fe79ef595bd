import type { Thread } from '../run/thread';
import type { Page, PageRequest } from './paging';
import type { ThreadRunStore } from './thread-run-store';

/** What {@link ThreadBranching.createBranch} takes. */
export interface CreateBranchInput {
  /** The thread to branch (the source); it may itself be a branch. */
  threadId: string;
  /**
   * The `seq` of the last message of the source's log the branch shares (messages are identified by
   * their thread and seq); 0 shares none, the source's message count shares all of it.
   */
  atSeq: number;
  /** The branch's id; a fresh one when absent. */
  id?: string;
  /** The branch's metadata; `{}` when absent. */
  metadata?: Record<string, unknown>;
}

/** A page of a thread's branches, optionally only those made at one message (its seq). */
export interface BranchListRequest extends PageRequest {
  atSeq?: number;
}

/**
 * An optional capability of a {@link ThreadRunStore}: branch a thread at one of its messages, by
 * reference. A branch is a thread whose log starts with its source's log up to and including that
 * message (the prefix) and continues with its own messages. Committed messages never change, so the
 * branch stores only a pointer to the prefix (`thread.branchOf`: source thread id and the message's
 * `seq`), never a copy: creating a branch costs the same whatever the prefix's length.
 *
 * Guarantees (memory, Redis and PostgreSQL pass the same conformance suite):
 * - `createBranch`: an unknown source → `not_found`; `atSeq` past the source's message count (its own
 *   messages and its prefix) → `not_found`; an existing `id` → `conflict`; nothing is written then;
 * - the branch is a new thread: `branchOf` set, the given metadata, the source's `title`, empty thread
 *   state, no runs; the source is not written at all (same record, same `updatedAt`, same log);
 * - every ThreadRunStore operation treats a branch's log as prefix + own messages:
 *   `readMessages` returns the prefix messages first (as stored in the thread that wrote them: their
 *   `threadId` is that thread's, their `seq` the same in every thread sharing them), `messageCount`
 *   counts both, `appendMessages` and checkpoints take that count as `expectedLength` /
 *   `expectedMessageCount` and give their messages the seqs after it; ranges and visibility filters
 *   work across the prefix boundary. Branches of branches resolve recursively;
 * - `listBranches(threadId)`: the branches made directly from `threadId`, oldest first, in pages (with
 *   `atSeq`, only those made at that message); an unknown thread has none;
 * - `deleteThread` of a thread that has branches is refused with `conflict` (HTTP 409) and deletes
 *   nothing: the prefix a branch points at stays alive. Deleting a branch removes it from its source's
 *   listing and leaves the source as it was;
 * - inputs are validated as every store input is (`validation_failed` naming the field).
 */
export interface ThreadBranching {
  createBranch(input: CreateBranchInput): Promise<Thread>;
  listBranches(threadId: string, query?: BranchListRequest): Promise<Page<Thread>>;
}

/** `store`'s branching, or undefined when the store does not offer it. */
export function threadBranching(store: ThreadRunStore): ThreadBranching | undefined {
  const branching = store as Partial<ThreadBranching>;
  const create = branching.createBranch;
  const list = branching.listBranches;
  return typeof create === 'function' && typeof list === 'function'
    ? {
        createBranch: (input) => create.call(store, input),
        listBranches: (threadId, query) => list.call(store, threadId, query),
      }
    : undefined;
}
