import type { UIMessage } from 'ai';
import { useState } from 'react';
import { type Alternatives, type BranchFamily, alternativesAt } from '../lib/branches';
import type { ChatMetadata } from '../lib/thread-history';
import { BranchSwitcher } from './thread-branches';
import '../branches.css';

/**
 * Under a user message: the switcher between its versions (when it has some) and "Edit", which
 * resends the message with another text. The server runs an edit of an earlier message on a new
 * branch of the thread, so the conversation as it was stays reachable (the switcher's other version).
 */
export function UserMessageTools({
  text,
  alternatives,
  canEdit,
  onEdit,
}: {
  text: string;
  alternatives: Alternatives | undefined;
  canEdit: boolean;
  onEdit: (text: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(text);
  if (editing) {
    return (
      <form
        className="edit-form"
        aria-label="Edit the message"
        onSubmit={(event) => {
          event.preventDefault();
          if (!value.trim() || value.trim() === text.trim()) return;
          setEditing(false);
          onEdit(value.trim());
        }}
      >
        <label className="sr-only" htmlFor="edit-message">
          Edited message
        </label>
        <textarea
          id="edit-message"
          rows={2}
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <div className="row">
          <button type="button" className="ghost" onClick={() => setEditing(false)}>
            Cancel
          </button>
          <button type="submit" disabled={!value.trim() || value.trim() === text.trim()}>
            Send edit
          </button>
        </div>
      </form>
    );
  }
  if (!alternatives && !canEdit) return null;
  return (
    <div className="message-tools">
      <BranchSwitcher alternatives={alternatives} />
      {canEdit ? (
        <button
          type="button"
          className="ghost"
          onClick={() => {
            setValue(text);
            setEditing(true);
          }}
        >
          Edit
        </button>
      ) : null}
    </div>
  );
}

/**
 * Under the last answer: "Regenerate", which asks the agent again. The server runs it on a new
 * branch of the thread (from before the message that was answered), so the earlier answer stays
 * reachable with the switcher.
 */
export function AnswerTools({ onRegenerate }: { onRegenerate: () => void }) {
  return (
    <div className="message-tools">
      <button type="button" className="ghost" onClick={onRegenerate}>
        Regenerate
      </button>
    </div>
  );
}

/**
 * The tools under a chat message: a user message's versions and Edit (its seq, known once loaded from
 * the server, places it among the thread's branches); Regenerate under the last answer. Edit and
 * Regenerate only while the chat is idle.
 */
export function MessageTools({
  message,
  family,
  idle,
  last,
  onEdit,
  onRegenerate,
}: {
  message: UIMessage;
  family: BranchFamily | undefined;
  idle: boolean;
  /** The last message of the conversation, its run not followed (waiting or running elsewhere). */
  last: boolean;
  onEdit: (text: string) => void;
  onRegenerate: () => void;
}) {
  if (message.role === 'assistant') return last && idle ? <AnswerTools onRegenerate={onRegenerate} /> : null;
  if (message.role !== 'user') return null;
  const seq = (message.metadata as ChatMetadata | undefined)?.seq;
  return (
    <UserMessageTools
      text={message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}
      alternatives={family && seq ? alternativesAt(family, seq) : undefined}
      canEdit={idle}
      onEdit={onEdit}
    />
  );
}
