import type { AgentEventOf } from '@awaken/contract';
import type { UiMessageChunk } from '../wire/ui-message-chunk';

type StreamedEvent = AgentEventOf<
  'text_start' | 'text_delta' | 'text_end' | 'reasoning_start' | 'reasoning_delta' | 'reasoning_end'
>;

/**
 * Text and reasoning parts stream alike, each kept in `open` by id: a start opens the part, a delta
 * opens it first when its start never came (a replay beginning mid-part), an end closes only a part
 * that is open.
 */
export function streamedChunks(
  kind: 'text' | 'reasoning',
  open: Set<string>,
  event: StreamedEvent,
  out: UiMessageChunk[],
): void {
  const id = event.messageId;
  const start = () => {
    open.add(id);
    out.push({ type: `${kind}-start`, id });
  };
  if (event.type === 'text_start' || event.type === 'reasoning_start') start();
  else if ('delta' in event) {
    if (!open.has(id)) start();
    out.push({ type: `${kind}-delta`, id, delta: event.delta });
  } else if (open.delete(id)) out.push({ type: `${kind}-end`, id });
}
