import { AwakenError, type Thread, type ThreadRunStore, threadBranching } from '@awaken/contract';
import {
  AWAKEN_THREAD_PART,
  type ChatRequest,
  type ChatTurn,
  type UiMessageChunk,
} from '@awaken/protocol-ai-sdk';

/**
 * The thread a chat request runs on: the body's `threadId` (a branch the client was told about with
 * a `data-awaken-thread` part) or else the chat id. `validation_failed` naming `threadId` when the
 * body holds something else than a non-empty string.
 */
export function chatThreadOf(request: ChatRequest): string {
  const value = request.body.threadId;
  if (value === undefined) return request.id;
  if (typeof value !== 'string' || value.length === 0)
    throw new AwakenError('validation_failed', 'threadId: expected the id of the thread to continue');
  return value;
}

/**
 * Where a turn that goes back in the conversation branches the chat's thread: the seq of the last
 * message the client's history keeps before its final user message. A regenerate of the assistant
 * message `messageId` (a run id) keeps what came before that run's input; otherwise the turn keeps
 * the history up to the end of the last assistant message before the user message (0 when there is
 * none). Undefined when the history cannot be placed on the thread (an assistant message that is no
 * run of this server): the turn then runs on the thread as before.
 */
async function branchPointOf(
  store: ThreadRunStore,
  request: ChatRequest,
  turn: Extract<ChatTurn, { type: 'message' | 'regenerate' }>,
): Promise<number | undefined> {
  if (turn.type === 'regenerate' && turn.messageId !== undefined) {
    const replaced = await store.getRun(turn.messageId);
    if (replaced?.inputRange) return replaced.inputRange.from - 1;
  }
  const before = request.messages.slice(0, -1).findLast((message) => message.role === 'assistant');
  if (before === undefined) return 0;
  const previous = await store.getRun(before.id);
  const end = previous?.outputRange?.to ?? previous?.inputRange?.to;
  return end === undefined ? undefined : end;
}

/** A branch a turn runs on, and the part that tells the client. */
export interface ChatBranch {
  thread: Thread;
  part: UiMessageChunk;
}

/**
 * The branch a regenerate or an edited earlier user message (`sendMessage({ text, messageId })`)
 * runs on, so the earlier answer stays where it was: created when the thread holds messages after
 * the point the client's history goes back to. A new message at the end of the conversation (no
 * `messageId`) never branches. Undefined when the turn runs on `threadId` itself.
 */
export async function chatBranchFor(
  store: ThreadRunStore,
  request: ChatRequest,
  turn: Extract<ChatTurn, { type: 'message' | 'regenerate' }>,
  threadId: string,
): Promise<ChatBranch | undefined> {
  const goesBack = turn.type === 'regenerate' || request.messageId !== undefined;
  const branching = threadBranching(store);
  if (!goesBack || !branching) return undefined;
  const at = await branchPointOf(store, request, turn);
  if (at === undefined || at >= (await store.messageCount(threadId))) return undefined;
  const thread = await branching.createBranch({ threadId, atSeq: at });
  const branchOf = thread.branchOf ?? { threadId, seq: at };
  return {
    thread,
    part: { type: AWAKEN_THREAD_PART, data: { threadId: thread.id, branchOf }, transient: true },
  };
}

/** `chunks` with `part` sent right after the stream's `start` chunk. */
export async function* withThreadPart(
  chunks: AsyncIterable<UiMessageChunk>,
  part: UiMessageChunk,
): AsyncIterable<UiMessageChunk> {
  let sent = false;
  for await (const chunk of chunks) {
    yield chunk;
    if (!sent && chunk.type === 'start') {
      sent = true;
      yield part;
    }
  }
}
