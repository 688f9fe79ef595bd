import { type BaseEvent, HttpAgent, type Message } from '@ag-ui/client';
import { EventSchema } from '@ag-ui/core/schemas';
import { AwakenAgent } from '@awaken/protocol-ag-ui/client';

/**
 * What every AG-UI response must be, checked on the bytes the client receives: `text/event-stream`;
 * LF framing only; one `data:` JSON event per frame, no `[DONE]`; each event accepted by
 * `@ag-ui/core`'s own schema with nothing stripped (no field the protocol does not know);
 * `RUN_STARTED` first and exactly one terminal event (`RUN_FINISHED` or `RUN_ERROR`), last.
 */
const problems: string[] = [];
const pending = new Set<Promise<void>>();

/** The problems every checked response showed since the last call (awaits the checks still running). */
export async function wireProblems(): Promise<string[]> {
  await Promise.all([...pending]);
  return problems.splice(0);
}

/** Every event type the checks saw: what they covered. */
export const seenEventTypes = new Set<string>();

function sameJson(a: unknown, b: unknown): boolean {
  const sort = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sort)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([, item]) => item !== undefined)
              .sort(([x], [y]) => (x < y ? -1 : 1))
              .map(([key, item]) => [key, sort(item)]),
          )
        : value;
  return JSON.stringify(sort(a)) === JSON.stringify(sort(b));
}

/** Checks one whole response body; `where` names it in problems. */
export function checkAgUiBody(where: string, text: string): Array<Record<string, any>> {
  if (text.includes('\r')) problems.push(`${where}: CR in the framing`);
  const events: Array<Record<string, any>> = [];
  for (const frame of text.split('\n\n')) {
    if (frame === '' || frame.startsWith(':')) continue;
    if (!frame.startsWith('data: ') || frame.includes('\n')) {
      problems.push(`${where}: a frame that is not one data line: ${frame.slice(0, 80)}`);
      continue;
    }
    const data = frame.slice(6);
    if (data === '[DONE]') {
      problems.push(`${where}: [DONE] sentinel`);
      continue;
    }
    const event = JSON.parse(data) as Record<string, any>;
    events.push(event);
    seenEventTypes.add(event.type);
    const parsed = EventSchema.safeParse(event);
    if (!parsed.success) problems.push(`${where}: ${event.type} fails @ag-ui/core: ${parsed.error.message}`);
    else if (!sameJson(parsed.data, event))
      problems.push(`${where}: ${event.type} has fields @ag-ui/core drops: ${data.slice(0, 200)}`);
  }
  if (events.length === 0) return events;
  if (events[0]?.type !== 'RUN_STARTED') problems.push(`${where}: first event ${events[0]?.type}`);
  const terminal = events.filter((event) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR');
  if (terminal.length !== 1 || terminal[0] !== events.at(-1))
    problems.push(`${where}: ${terminal.length} terminal events, last ${events.at(-1)?.type}`);
  return events;
}

/** A fetch that checks every AG-UI stream it returns (on a copy of the body). */
export function checkedFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  return checkedFetchOf(fetch)(url, init);
}

/** {@link checkedFetch} over another fetch (one that retries, for example). */
export function checkedFetchOf(base: typeof fetch) {
  return (url: string | URL | Request, init?: RequestInit) => checked(base, url, init);
}

async function checked(
  base: typeof fetch,
  url: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const response = await base(url, init);
  const where = `${init?.method ?? 'GET'} ${String(url)}`;
  // only the event streams (run, connect): stop answers JSON
  if (!response.ok || !response.body || !/\/(run|connect)$/.test(String(url))) return response;
  if (!response.headers.get('content-type')?.startsWith('text/event-stream'))
    problems.push(`${where}: content-type ${response.headers.get('content-type')}`);
  const [mine, theirs] = response.body.tee();
  const check = new Response(mine)
    .text()
    .then((text) => void checkAgUiBody(where, text))
    .catch(() => undefined)
    .finally(() => pending.delete(check));
  pending.add(check);
  return new Response(theirs, { status: response.status, headers: response.headers });
}

export interface AgentOptions {
  url: string;
  agentId?: string;
  threadId?: string;
  /** An `AwakenAgent` (connect, stop) instead of a plain `HttpAgent`. */
  awaken?: boolean;
  headers?: Record<string, string>;
  /** The fetch the agent's requests go through (checked on the wire all the same). */
  fetch?: typeof fetch;
}

/** A client agent on the reference server whose every event is recorded, and checked on the wire. */
export function createAgent(options: AgentOptions) {
  const config = {
    url: `${options.url}/v1/ag-ui/agents/${options.agentId ?? 'demo'}/run`,
    ...(options.threadId ? { threadId: options.threadId } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    fetch: options.fetch ? checkedFetchOf(options.fetch) : checkedFetch,
  };
  const agent = options.awaken ? new AwakenAgent(config) : new HttpAgent(config);
  const events: BaseEvent[] = [];
  agent.subscribe({
    onEvent: ({ event }) => {
      events.push(event);
    },
  });
  return { agent, events };
}

/** The text of the assistant messages. */
export function assistantText(messages: readonly Message[]): string {
  return messages
    .filter((message) => message.role === 'assistant')
    .map((message) => (typeof message.content === 'string' ? message.content : ''))
    .join('');
}

/** The events of the last run (from its RUN_STARTED). */
export function lastRun(events: readonly BaseEvent[]): BaseEvent[] {
  const start = events.map((event) => event.type).lastIndexOf('RUN_STARTED' as never);
  return events.slice(Math.max(0, start));
}
