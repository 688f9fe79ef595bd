import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import {
  LegacyJsonRpcTransport,
  isLegacyAgentCard,
  parseLegacyAgentCard,
} from '@a2a-js/sdk/compat/v0_3/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerText,
  collect,
  lastStatus,
  sendParams,
  taskJson,
  ticketsOf,
} from '../../../test-support/a2a-client';
import { type AppProcess, startAppProcess } from '../../../test-support/app-process';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5' });
});
afterAll(async () => {
  await app?.stop();
});

interface Exchange {
  /** The request's `A2A-Version` header (null when it sent none). */
  version: string | null;
  method: string | undefined;
  vary: string | null;
  /** Every JSON-RPC result the response carried (one, or one per SSE event). */
  results: Promise<Array<Record<string, any>>>;
}

/** A fetch for the SDK that records what went over the wire: headers, methods and the raw results. */
function wireRecorder() {
  const exchanges: Exchange[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const text = response.clone().text();
    exchanges.push({
      version: new Headers(init?.headers).get('a2a-version'),
      method: body?.method,
      vary: response.headers.get('vary'),
      results: text.then((raw) =>
        (response.headers.get('content-type')?.startsWith('text/event-stream')
          ? raw
              .split('\n\n')
              .filter((frame) => frame.startsWith('data: '))
              .map((frame) => JSON.parse(frame.slice(6)))
          : [JSON.parse(raw)]
        ).map((envelope) => envelope.result),
      ),
    });
    return response;
  };
  return { exchanges, fetchImpl };
}

/** The raw v0.3 card, as a client without `A2A-Version` reads it. */
async function v03Card() {
  const response = await fetch(`${app.url}/.well-known/agent-card.json`);
  return { card: (await response.json()) as Record<string, any>, vary: response.headers.get('vary') };
}

describe('A2A v0.3 clients (no A2A-Version header): the real @a2a-js/sdk v0.3 compat layer', () => {
  it('the card without the header is the v0.3 card (Vary: A2A-Version); the SDK legacyCompat reads it and picks its v0.3 transport', async () => {
    const { card, vary } = await v03Card();
    expect(vary).toMatch(/A2A-Version/i);
    expect(card).toMatchObject({
      protocolVersion: '0.3',
      url: `${app.url}/v1/a2a`,
      preferredTransport: 'JSONRPC',
    });
    expect(isLegacyAgentCard(card)).toBe(true);
    const parsed = parseLegacyAgentCard(card);
    expect(parsed.supportedInterfaces).toMatchObject([{ url: `${app.url}/v1/a2a`, protocolVersion: '0.3' }]);
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
      }),
    );
    expect((await factory.createFromAgentCard(parsed)).protocolVersion).toBe('0.3');

    // a client asking for 1.0 (what the SDK's card resolver sends) gets the v1.0 card
    const resolver = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } });
    const v1 = await resolver.resolve(app.url);
    expect(v1.supportedInterfaces.map((entry) => entry.protocolVersion)).toEqual(['1.0']);
    const v1Response = await fetch(`${app.url}/.well-known/agent-card.json`, {
      headers: { 'a2a-version': '1.0' },
    });
    expect(v1Response.headers.get('vary')).toMatch(/A2A-Version/i);
    expect((await v1Response.json()).protocolVersion).toBeUndefined();
  });

  it('message/stream to input-required, then an approval by message/send on the same task, in v0.3 shapes', async () => {
    const { card } = await v03Card();
    const { exchanges, fetchImpl } = wireRecorder();
    const transport = new LegacyJsonRpcTransport({ endpoint: card.url, fetchImpl });

    const first = await collect(transport.sendMessageStream(sendParams([{ text: 'delete /tmp/v03.txt' }])));
    const task = first[0]?.task;
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
    const asked = lastStatus(first);
    expect(asked?.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const [ticket] = ticketsOf({ status: asked });
    expect(ticket).toMatchObject({ type: 'tool-approval-request', toolName: 'delete_file' });
    expect(answerText(first)).toBe('I will delete /tmp/v03.txt. ');

    const answer = { approved: true, approvalId: ticket?.approvalId, toolCallId: ticket?.toolCallId };
    const done = await transport.sendMessage(
      sendParams([{ data: answer }], { taskId: task.id, contextId: task.contextId }),
    );
    expect(taskJson(done as never)).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_COMPLETED' } });
    const stored = taskJson(await transport.getTask({ tenant: '', id: task.id, historyLength: 0 }));
    expect(stored.artifacts[0].parts[0].text).toBe(
      'I will delete /tmp/v03.txt. Done: I deleted /tmp/v03.txt.',
    );

    // on the wire: no header, v0.3 method names, v0.3 shapes, Vary on every answer
    expect(exchanges.map((exchange) => [exchange.version, exchange.method])).toEqual([
      [null, 'message/stream'],
      [null, 'message/send'],
      [null, 'tasks/get'],
    ]);
    for (const exchange of exchanges) expect(exchange.vary).toMatch(/A2A-Version/i);
    const [stream, send] = await Promise.all(exchanges.map((exchange) => exchange.results));
    expect(stream?.[0]).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
    expect(stream?.at(-1)).toMatchObject({
      kind: 'status-update',
      final: true,
      status: { state: 'input-required' },
    });
    expect(stream?.at(-1)?.status.message.parts.map((part: any) => part.kind)).toEqual(['text', 'data']);
    expect(send?.[0]).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });

  it('blocking message/send to input-required, then a denial by message/stream completes the task', async () => {
    const { card } = await v03Card();
    const { exchanges, fetchImpl } = wireRecorder();
    const transport = new LegacyJsonRpcTransport({ endpoint: card.url, fetchImpl });
    const asked = taskJson(
      (await transport.sendMessage(sendParams([{ text: 'delete /tmp/v03-keep.txt' }]))) as never,
    );
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const [ticket] = ticketsOf(asked);
    const answer = { approved: false, approvalId: ticket?.approvalId, reason: 'keep it' };
    const second = await collect(
      transport.sendMessageStream(
        sendParams([{ data: answer }], { taskId: asked.id, contextId: asked.contextId }),
      ),
    );
    expect(second[0]?.task).toMatchObject({ id: asked.id, status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    expect(lastStatus(second)?.state).toBe('TASK_STATE_COMPLETED');
    expect(answerText(second)).toMatch(/I did not run delete_file/);
    expect(exchanges.map((exchange) => [exchange.version, exchange.method, exchange.vary])).toEqual([
      [null, 'message/send', expect.stringMatching(/A2A-Version/i)],
      [null, 'message/stream', expect.stringMatching(/A2A-Version/i)],
    ]);
    const [send, stream] = await Promise.all(exchanges.map((exchange) => exchange.results));
    expect(send?.[0]).toMatchObject({ kind: 'task', status: { state: 'input-required' } });
    expect(stream?.at(-1)).toMatchObject({
      kind: 'status-update',
      final: true,
      status: { state: 'completed' },
    });
  });
});

describe('A2A 1.0 clients (A2A-Version: 1.0) keep the v1.0 shapes', () => {
  it('SendMessage answers a v1.0 Task, with Vary: A2A-Version', async () => {
    const response = await fetch(`${app.url}/v1/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'v1',
        method: 'SendMessage',
        params: { message: { messageId: 'v1-m', role: 'ROLE_USER', parts: [{ text: 'weather in Rome' }] } },
      }),
    });
    expect(response.headers.get('vary')).toMatch(/A2A-Version/i);
    const { result } = await response.json();
    expect(result.task).toMatchObject({ status: { state: 'TASK_STATE_COMPLETED' } });
    expect(result.task.kind).toBeUndefined();
  });
});
