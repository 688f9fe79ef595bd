import {
  decisionViewOf,
  type AgentEvent,
  AwakenError,
  type ClientTool,
  type ModelExecutor,
  type RunEventLog,
  type Tool,
} from '@awaken/contract';
import { createPermissionPlugin } from '@awaken/ext-permission';
import { type AgentDefinition, createAgentRuntime } from '@awaken/runtime';
import { createMemoryStores } from '@awaken/store-memory';
import {
  type ScriptedModel,
  type ScriptedTurnSource,
  createDeferred,
  createScriptedModel,
} from '@awaken/testing';
import {
  createUiMessageStreamResponse,
  encodeUiMessageStream,
  matchDecisions,
  parseChatRequest,
  readChatTurn,
} from '../src/index';

export interface ChatHarnessOptions {
  turns: ScriptedTurnSource;
  tools?: Tool[];
  /** Client tools sent with every run (`RunRequest.tools`). */
  clientTools?: ClientTool[];
  /** Tool names that need an approval (ext-permission `ask`); everything else is allowed. */
  ask?: string[];
  toolExecution?: AgentDefinition['toolExecution'];
  /** Holds the model's `call`-th stream (0-based) after `afterParts` parts until `release()`. */
  hold?: { call: number; afterParts: number };
}

/** The scripted model, holding one of its streams mid-way until released. */
function holdingModel(model: ScriptedModel, hold: ChatHarnessOptions['hold']) {
  const gate = createDeferred<void>();
  let calls = 0;
  const executor: ModelExecutor = {
    modelId: model.modelId,
    async *stream(request) {
      const call = calls++;
      let parts = 0;
      for await (const part of model.stream(request)) {
        if (call === hold?.call && parts++ === hold.afterParts) await gate.promise;
        yield part;
      }
    },
  };
  return { executor, release: () => gate.resolve() };
}

/**
 * The adapter wired to a real runtime over memory stores, behind a `fetch` the `ai` client uses:
 * the smallest server the routes of `@awaken/server` grow from. `POST /api/chat` starts or continues
 * a run, `GET /api/chat/:id/stream` replays the active run. Records every raw SSE body it sent.
 */
export function createChatHarness(options: ChatHarnessOptions) {
  const stores = createMemoryStores();
  const model = createScriptedModel(options.turns);
  const held = holdingModel(model, options.hold);
  const permissions = createPermissionPlugin({
    defaultBehavior: 'allow',
    rules: (options.ask ?? []).map((tool) => ({ tool, behavior: 'ask' as const })),
  });
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'agent',
        tools: options.tools ?? [],
        plugins: [permissions],
        toolExecution: options.toolExecution ?? 'parallel',
      },
    ],
    stores,
    model: held.executor,
  });
  const bodies: string[] = [];
  const requests: unknown[] = [];
  /** When set, the next POST response is cut (a network error) after this many SSE events. */
  let cutAfter: number | undefined;

  function respond(chunks: AsyncIterable<import('../src/index').UiMessageChunk>): Response {
    const response = createUiMessageStreamResponse(chunks);
    const [mine, theirs] = response.body!.tee();
    void new Response(mine).text().then((text) => bodies.push(text));
    const limit = cutAfter;
    cutAfter = undefined;
    return new Response(limit === undefined ? theirs : cut(theirs, limit), response);
  }

  async function post(body: unknown): Promise<Response> {
    requests.push(body);
    const request = parseChatRequest(body);
    const turn = readChatTurn(request);
    if (turn.type !== 'continue') {
      const handle = runtime.run({
        agentId: 'agent',
        threadId: request.id,
        input: turn.text,
        onOpenRun: 'cancel',
        ...(options.clientTools ? { tools: options.clientTools } : {}),
      });
      return respond(encodeUiMessageStream(handle.events, { messageId: handle.runId }));
    }
    const thread = await stores.threadRuns.getThread(request.id);
    const run = thread?.openRunId ? await stores.threadRuns.getRun(thread.openRunId) : null;
    const { decisions, rejected } = matchDecisions({
      proposals: turn.proposals,
      run: run
        ? decisionViewOf(run)
        : { runId: request.id, status: 'done', calls: [], applied: new Set(), pending: [] },
    });
    if (!run || decisions.length === 0)
      throw new AwakenError(
        'validation_failed',
        `nothing to continue: ${rejected.map((r) => r.message).join('; ')}`,
      );
    const history = await stores.eventLog!.read(run.runId);
    const handle = runtime.resumeRun(run.runId, { decisions });
    return respond(encodeUiMessageStream(handle.events, { messageId: run.runId, history }));
  }

  async function resume(chatId: string): Promise<Response> {
    const thread = await stores.threadRuns.getThread(chatId);
    const runId = thread?.activeRunId;
    if (!runId) return new Response(null, { status: 204 });
    return respond(encodeUiMessageStream(replayRun(stores.eventLog!, runId), { messageId: runId }));
  }

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    try {
      if (init?.method === 'POST' && url.pathname === '/api/chat')
        return await post(JSON.parse(String(init.body)));
      const match = /^\/api\/chat\/([^/]+)\/stream$/.exec(url.pathname);
      if (init?.method === 'GET' && match) return await resume(decodeURIComponent(match[1]!));
      return new Response('not found', { status: 404 });
    } catch (error) {
      const status = AwakenError.hasCode(error, 'validation_failed') ? 400 : 500;
      const message = error instanceof Error ? error.message : String(error);
      return Response.json(
        { error: { code: (error as AwakenError).code ?? 'internal', message } },
        { status },
      );
    }
  };

  return {
    fetch: fetch as typeof globalThis.fetch,
    api: 'http://chat.test/api/chat',
    runtime,
    stores,
    model,
    release: held.release,
    bodies,
    requests,
    /** Cuts the next POST response after `events` SSE events, as a dropped connection would. */
    cutNextResponse(events: number) {
      cutAfter = events;
    },
  };
}

/** The whole run so far (every activation), then its live events up to the current activation's end. */
export async function* replayRun(eventLog: RunEventLog, runId: string): AsyncGenerator<AgentEvent> {
  let seq = 0;
  let finished = false;
  for (;;) {
    const events = await eventLog.tail(runId, { afterSeq: seq, waitMs: 1_000 });
    for (const event of events) {
      seq = event.seq;
      finished = event.type === 'run_finish';
      yield event;
    }
    // a run_finish ends the replay unless a later activation already follows it
    if (finished && (await eventLog.lastSeq(runId)) === seq) return;
  }
}

/** A body that fails with a network error after `events` SSE events. */
function cut(body: ReadableStream<Uint8Array>, events: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let seen = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (seen >= events) {
        void reader.cancel();
        controller.error(new TypeError('network error'));
        return;
      }
      const next = await reader.read();
      if (next.done) return controller.close();
      seen += decoder.decode(next.value, { stream: true }).split('\n\n').length - 1;
      controller.enqueue(next.value);
    },
  });
}
