import type { RunSession } from '../session/run-session';

/** A text or reasoning block of one inference's stream, as its events name it. */
export interface StreamedBlock {
  /** Posts the delta, opening the block first (a new message id) when it is not open. */
  append(delta: string): void;
  /** Posts the block's end when it is open; the next delta opens a new one. */
  close(): void;
  /** Everything appended, joined once (long answers are never re-copied as they grow). */
  text(): string;
}

/** The `<kind>_start` / `_delta` / `_end` events of one kind of block, posted on the session's stream. */
export function streamedBlock(session: RunSession, kind: 'text' | 'reasoning'): StreamedBlock {
  const parts: string[] = [];
  let openId: string | undefined;
  return {
    append(delta) {
      if (openId === undefined) {
        openId = session.services.createId();
        session.events.post({ type: `${kind}_start`, messageId: openId });
      }
      parts.push(delta);
      session.events.post({ type: `${kind}_delta`, messageId: openId, delta });
    },
    close() {
      if (openId === undefined) return;
      session.events.post({ type: `${kind}_end`, messageId: openId });
      openId = undefined;
    },
    text: () => parts.join(''),
  };
}
