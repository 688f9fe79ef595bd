import { uiMessageChunkSchema } from 'ai';

/**
 * What every UI message stream response must be, checked on the bytes the client receives:
 * the stream headers; every `data:` payload a chunk the v6 client's own schema accepts; `start`
 * first, carrying the id of the assistant message a continuation continues; exactly one
 * `data: [DONE]`, last. A response cut by the network is checked up to the cut.
 */
const problems: string[] = [];
const pending = new Set<Promise<void>>();

/** The problems every checked fetch saw since the last call (awaits the schema checks still running). */
export async function wireProblems(): Promise<string[]> {
  await Promise.all([...pending]);
  return problems.splice(0);
}

/** Every chunk type seen so far: what the checks covered. */
export const seenChunkTypes = new Set<string>();

function lastAssistantId(init?: RequestInit): string | undefined {
  if (typeof init?.body !== 'string') return undefined;
  const body = JSON.parse(init.body) as { messages?: Array<{ id: string; role: string }> };
  const last = body.messages?.at(-1);
  return last?.role === 'assistant' ? last.id : undefined;
}

function checkHeaders(where: string, headers: Headers): void {
  const expected: Record<string, string> = {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-vercel-ai-ui-message-stream': 'v1',
    'x-accel-buffering': 'no',
  };
  for (const [name, value] of Object.entries(expected)) {
    if (!headers.get(name)?.startsWith(value))
      problems.push(`${where}: header ${name} is ${headers.get(name)}`);
  }
}

function checker(where: string, continues: string | undefined) {
  let buffer = '';
  let events = 0;
  let done = 0;
  const decoder = new TextDecoder();
  const checkEvent = (event: string) => {
    if (event.startsWith(':')) return;
    if (!event.startsWith('data: ')) {
      problems.push(`${where}: not a data event: ${event}`);
      return;
    }
    const data = event.slice('data: '.length);
    if (done > 0) problems.push(`${where}: ${data} after [DONE]`);
    if (data === '[DONE]') {
      done += 1;
      return;
    }
    const chunk = JSON.parse(data) as { type: string; messageId?: string };
    events += 1;
    seenChunkTypes.add(chunk.type);
    if (events === 1 && chunk.type !== 'start') problems.push(`${where}: the first chunk is ${data}`);
    if (chunk.type === 'start' && continues !== undefined && chunk.messageId !== continues)
      problems.push(`${where}: the continuation of ${continues} starts ${chunk.messageId}`);
    const check = (async () => {
      const result = await uiMessageChunkSchema().validate?.(chunk);
      if (!result?.success) problems.push(`${where}: the v6 client refuses ${data}`);
    })();
    pending.add(check);
    void check.finally(() => pending.delete(check));
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(bytes, controller) {
      buffer += decoder.decode(bytes, { stream: true });
      const complete = buffer.split('\n\n');
      buffer = complete.pop() ?? '';
      for (const event of complete) checkEvent(event);
      controller.enqueue(bytes);
    },
    flush() {
      if (buffer !== '') problems.push(`${where}: unterminated event ${buffer}`);
      if (done !== 1) problems.push(`${where}: [DONE] sent ${done} times`);
    },
  });
}

/** A `fetch` whose UI message stream responses are checked on their way to the client. */
export function checkedFetch(base: typeof globalThis.fetch = globalThis.fetch): typeof globalThis.fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await base(input, init);
    const where = `${init?.method ?? 'GET'} ${String(input)}`;
    if (response.status !== 200 || !response.body) return response;
    checkHeaders(where, response.headers);
    const body = response.body.pipeThrough(checker(where, lastAssistantId(init)));
    return new Response(body, { status: response.status, headers: response.headers });
  }) as typeof globalThis.fetch;
}
