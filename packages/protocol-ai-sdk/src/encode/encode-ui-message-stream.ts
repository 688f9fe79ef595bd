import type { AgentEvent } from '@awaken/contract';
import { type UiMessageEncoderOptions, createUiMessageEncoder } from './create-ui-message-encoder';
import type { UiMessageChunk } from '../wire/ui-message-chunk';

export interface EncodeUiMessageStreamOptions extends UiMessageEncoderOptions {
  /**
   * Earlier events of the same run that the client already holds (the responses before this one
   * for the same assistant message). They are taken in, not sent.
   */
  history?: Iterable<AgentEvent>;
}

/**
 * Encodes the events of one response — one or more activations of a run — into v6 chunks: `start`,
 * the chunks of every event, then `finish` once `events` ends. Stopping the iteration early (a client
 * disconnect) stops reading `events`; it never cancels the run.
 */
export async function* encodeUiMessageStream(
  events: AsyncIterable<AgentEvent> | Iterable<AgentEvent>,
  options: EncodeUiMessageStreamOptions,
): AsyncGenerator<UiMessageChunk> {
  const { history, ...encoderOptions } = options;
  const encoder = createUiMessageEncoder(encoderOptions);
  for (const event of history ?? []) encoder.absorb(event);
  for await (const event of events) yield* encoder.push(event);
  yield* encoder.end();
}
