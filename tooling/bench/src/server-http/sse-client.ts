/** Reads an SSE response to its end; returns the event count and the raw text. */
export async function drainSse(response: Response): Promise<{ events: number; text: string }> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error(`no body (${response.status})`);
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  const events = text.split('\n').filter((line) => line.startsWith('id: ')).length;
  return { events, text };
}

/** Reads until the first SSE event frame arrives; returns when it did, then cancels the stream. */
export async function firstEvent(response: Response): Promise<number> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error(`no body (${response.status})`);
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error('stream ended before an event');
    text += decoder.decode(chunk.value, { stream: true });
    if (text.includes('\nid: ') || text.startsWith('id: ')) {
      const at = performance.now();
      await reader.cancel();
      return at;
    }
  }
}
