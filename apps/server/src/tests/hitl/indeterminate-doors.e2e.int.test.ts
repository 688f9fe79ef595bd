import { randomUUID } from 'node:crypto';
import { StreamResponse } from '@a2a-js/sdk';
import { buildResumeArray } from '@ag-ui/client';
import type { AwakenAgent } from '@awaken/protocol-ag-ui/client';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { a2aClient, sendParams, taskJson, ticketsOf } from '../../../test-support/a2a-client';
import {
  wireProblems as agUiProblems,
  assistantText,
  createAgent,
  lastRun,
} from '../../../test-support/ag-ui-client';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';
import { type NodeChat, createChatClient, lastText, toolParts } from '../../../test-support/chat-client';
import { wireProblems as chatProblems } from '../../../test-support/wire-check';

/**
 * "Did it happen?" answered on every door. Nine runs call `send_invoice` (a tool declared
 * `idempotent: false` that takes 3 s), three through each door, on a server process that is killed
 * (SIGKILL) while all nine are inside the tool. Another process takes them over: none sends again,
 * each waits on an `indeterminate` ticket. Each door's real client then sees the question as its
 * protocol shows it and answers it with each outcome: `retry` runs the tool once more, `result` makes
 * the given value the call's result without running it, `fail` fails the call without running it.
 *
 * Processes (one Redis): `doomed` runs the nine and dies; `front` serves every request after the
 * crash and executes nothing (AWAKEN_WORKERS=0), so the runs stay `running` until `rescuer` starts
 * and takes them over — the chats re-attach (`resumeStream`) before that, as `useChat` does after a
 * dropped stream, and follow the takeover live. Whether a tool body ran is read from the processes'
 * logs (`demo: sending invoice`, written when its body starts).
 */
const OUTCOMES = ['retry', 'result', 'fail'] as const;
type Outcome = (typeof OUTCOMES)[number];
const SCHEMA = { properties: { outcome: { enum: [...OUTCOMES] } }, required: ['outcome'] };
const WAIT = { timeout: 30_000, interval: 50 };

/** The answer of each outcome, in the indeterminate answer shape (`invoice` names the call). */
function answerOf(outcome: Outcome, invoice: string) {
  if (outcome === 'retry') return { outcome };
  if (outcome === 'result') return { outcome, result: { sent: `by-hand-${invoice}` } };
  return { outcome, reason: 'the mail server bounced it' };
}

/** What the model (the demo's scripted one) says once the call is resolved. */
function finalText(outcome: Outcome, invoice: string): RegExp {
  if (outcome === 'retry') return new RegExp(`Done: invoice ${invoice} is sent\\.$`);
  if (outcome === 'result') return new RegExp(`Done: invoice by-hand-${invoice} is sent\\.$`);
  return /I did not run send_invoice: .*the mail server bounced it/;
}

let doomed: AppProcess;
let front: AppProcess;
let rescuer: AppProcess | undefined;
/** Where the clients' requests go: the doomed process, then the front one. */
let target: () => AppProcess = () => doomed;
const routed: typeof fetch = (input, init) =>
  fetch(String(input).replace(/^http:\/\/[^/]+/, target().url), init);

type Started = { invoice: string; threadId: string };
const chats = {} as Record<Outcome, Started & { chat: NodeChat; errors: Error[] }>;
const agUi = {} as Record<Outcome, Started>;
const a2a = {} as Record<Outcome, Started & { taskId: string }>;

/** How many times `send_invoice`'s body started for `invoice` in these processes. */
function sendings(apps: ReadonlyArray<AppProcess | undefined>, invoice: string): number {
  return apps
    .flatMap((app) => app?.logs ?? [])
    .filter((entry) => entry.msg === 'demo: sending invoice' && entry.invoice === invoice).length;
}

/** The result the server's own thread holds for the thread's one tool call. */
async function toolResult(threadId: string): Promise<Record<string, any>> {
  const { body } = await api(front.url, `/v1/threads/${threadId}/messages?limit=1000`);
  const results = body.items
    .map((item: any) => item.message ?? item)
    .filter((message: any) => message.role === 'tool');
  expect(results).toHaveLength(1);
  return results[0];
}

/** The tool ran again once for `retry`, never for the others; the thread holds what each says. */
async function expectResolved(outcome: Outcome, { invoice, threadId }: Started) {
  expect(sendings([doomed], invoice)).toBe(1);
  expect(sendings([front, rescuer], invoice)).toBe(outcome === 'retry' ? 1 : 0);
  const result = await toolResult(threadId);
  if (outcome === 'fail') {
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(JSON.stringify(result.content)).toContain('the mail server bounced it');
  } else {
    const sent = outcome === 'retry' ? invoice : `by-hand-${invoice}`;
    expect(result).toMatchObject({ outcome: 'succeeded', content: { sent } });
  }
}

/** Posts a `RunAgentInput` to the doomed process and reads its stream until the process dies. */
async function startAgUiRun(threadId: string, text: string): Promise<void> {
  try {
    const response = await fetch(`${doomed.url}/v1/ag-ui/agents/demo/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        threadId,
        runId: randomUUID(),
        messages: [{ id: `u-${randomUUID()}`, role: 'user', content: text }],
      }),
    });
    await response.text();
  } catch {
    // the process serving it was killed
  }
}

/** Starts an A2A task on the doomed process: its id from the stream's first event, the rest read on. */
async function startTask(text: string): Promise<{ taskId: string; contextId: string }> {
  const client = await a2aClient(doomed.url);
  const stream = client.sendMessageStream(sendParams([{ text }]))[Symbol.asyncIterator]();
  const first = await stream.next();
  const task = (StreamResponse.toJSON(first.value as StreamResponse) as Record<string, any>).task;
  void (async () => {
    try {
      while (!(await stream.next()).done) {}
    } catch {
      // the process serving it was killed
    }
  })();
  return { taskId: task.id, contextId: task.contextId };
}

beforeAll(async () => {
  const env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `e2e-indet-${randomUUID().slice(0, 8)}`,
    AWAKEN_DEMO_DELAY_MS: '5',
    AWAKEN_LEASE_MS: '1500',
    AWAKEN_KEEPALIVE_MS: '200',
  };
  [doomed, front] = await Promise.all([
    startAppProcess({ ...env, AWAKEN_WORKERS: '4' }),
    startAppProcess({ ...env, AWAKEN_WORKERS: '0' }),
  ]);
  const tag = randomUUID().slice(0, 6);
  const settling: Array<Promise<unknown>> = [];
  for (const outcome of OUTCOMES) {
    // useChat: the chat id is the thread
    const threadId = `chat-${outcome}-${tag}`;
    const invoice = `ai-${outcome}-${tag}`;
    const { chat, errors } = createChatClient({ url: doomed.url, id: threadId, fetch: routed });
    settling.push(chat.sendMessage({ text: `send invoice ${invoice}` }));
    chats[outcome] = { invoice, threadId, chat, errors };
    // AG-UI: a RunAgentInput on a thread of its own, its stream read until the process dies
    const agUiThread = `agui-${outcome}-${tag}`;
    settling.push(startAgUiRun(agUiThread, `send invoice ag-${outcome}-${tag}`));
    agUi[outcome] = { invoice: `ag-${outcome}-${tag}`, threadId: agUiThread };
    // A2A: a streamed task; its context is the thread
    const started = await startTask(`send invoice a2a-${outcome}-${tag}`);
    a2a[outcome] = { invoice: `a2a-${outcome}-${tag}`, threadId: started.contextId, taskId: started.taskId };
  }
  const invoices = OUTCOMES.flatMap((outcome) => [chats, agUi, a2a].map((door) => door[outcome].invoice));
  // all nine are inside the tool body (its start is stored before the body runs): kill the process
  await vi.waitFor(() => {
    for (const invoice of invoices) expect(sendings([doomed], invoice)).toBe(1);
  }, WAIT);
  await doomed.kill();
  target = () => front;
  await Promise.all(settling);
  await Promise.all([chatProblems(), agUiProblems()]);
  for (const { errors } of Object.values(chats)) errors.splice(0);
  // the chats re-attach while the runs still look like they run, then follow the takeover
  const resumed = OUTCOMES.map((outcome) => chats[outcome].chat.resumeStream());
  await vi.waitFor(() => {
    for (const { chat } of Object.values(chats)) expect(chat.status).toBe('streaming');
  }, WAIT);
  rescuer = await startAppProcess({ ...env, AWAKEN_WORKERS: '4' });
  await Promise.all(resumed);
  await vi.waitFor(async () => {
    for (const { threadId } of [...Object.values(agUi), ...Object.values(a2a)]) {
      const runs = await api(front.url, `/v1/threads/${threadId}/runs`);
      expect(runs.body.items[0]?.status).toBe('waiting');
    }
  }, WAIT);
}, 120_000);

afterAll(async () => {
  await Promise.all([doomed?.kill(), front?.stop(), rescuer?.stop()]);
});

describe('an indeterminate question (did send_invoice happen?) answered on every door', () => {
  it('useChat (ai@6 AbstractChat): a data-awaken-question part, answered by addToolOutput in its shape', async () => {
    for (const outcome of OUTCOMES) {
      const { chat, errors, invoice } = chats[outcome];
      const [part] = toolParts(chat);
      expect(part).toMatchObject({ type: 'tool-send_invoice', state: 'input-available', input: { invoice } });
      const question = chat.lastMessage?.parts.find((entry) => entry.type === 'data-awaken-question') as any;
      expect(question?.data).toMatchObject({
        kind: 'indeterminate',
        toolCallId: part?.toolCallId,
        toolName: 'send_invoice',
        outcomes: [...OUTCOMES],
        responseSchema: SCHEMA,
      });
      expect(chat.lastMessage?.metadata).toMatchObject({
        awaken: { status: 'waiting', waitingFor: [question.data.ticketId] },
      });
      await chat.addToolOutput({
        tool: 'send_invoice',
        toolCallId: part?.toolCallId,
        output: answerOf(outcome, invoice),
      });
      await chat.sendMessage();
      expect({ outcome, errors }).toEqual({ outcome, errors: [] });
      expect(chat.lastMessage?.metadata).toMatchObject({ awaken: { status: 'done' } });
      expect(toolParts(chat)).toMatchObject([
        outcome === 'fail'
          ? { state: 'output-error', errorText: expect.stringContaining('the mail server bounced it') }
          : {
              state: 'output-available',
              output: { sent: outcome === 'result' ? `by-hand-${invoice}` : invoice },
            },
      ]);
      expect(lastText(chat)).toMatch(finalText(outcome, invoice));
      await expectResolved(outcome, chats[outcome]);
    }
    expect(await chatProblems()).toEqual([]);
  });

  it('AG-UI (@ag-ui/client): an awaken:indeterminate interrupt, answered by resume[].payload in its shape', async () => {
    for (const outcome of OUTCOMES) {
      const { threadId, invoice } = agUi[outcome];
      // a reloaded page: AwakenAgent reconnects to the thread's waiting run
      const { agent, events } = createAgent({ url: front.url, threadId, awaken: true });
      await (agent as AwakenAgent).connectAgent();
      expect(agent.pendingInterrupts).toHaveLength(1);
      const [question] = agent.pendingInterrupts;
      expect(question).toMatchObject({
        reason: 'awaken:indeterminate',
        toolCallId: expect.any(String),
        responseSchema: SCHEMA,
        metadata: { toolName: 'send_invoice', action: 'indeterminate', outcomes: [...OUTCOMES] },
      });
      await agent.runAgent({
        resume: buildResumeArray(agent.pendingInterrupts, {
          [question!.id]: { status: 'resolved', payload: answerOf(outcome, invoice) },
        }),
      });
      const resumed = lastRun(events);
      expect(resumed.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(resumed.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({
        toolCallId: question?.toolCallId,
      });
      expect(agent.pendingInterrupts).toEqual([]);
      expect(assistantText(agent.messages)).toMatch(finalText(outcome, invoice));
      await expectResolved(outcome, agUi[outcome]);
    }
    expect(await agUiProblems()).toEqual([]);
  });

  it('A2A (@a2a-js/sdk): a tool-indeterminate-request data part, answered by a data part in its shape', async () => {
    const client = await a2aClient(front.url);
    for (const outcome of OUTCOMES) {
      const { taskId, threadId, invoice } = a2a[outcome];
      const asked = taskJson(await client.getTask({ tenant: '', id: taskId }));
      expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const [question] = ticketsOf(asked);
      expect(question).toMatchObject({
        type: 'tool-indeterminate-request',
        toolName: 'send_invoice',
        input: { invoice },
        outcomes: [...OUTCOMES],
        responseSchema: { ...SCHEMA, required: ['approvalId', 'outcome'] },
      });
      const answer = { approvalId: question?.approvalId, ...answerOf(outcome, invoice) };
      const done = taskJson(
        (await client.sendMessage(sendParams([{ data: answer }], { taskId, contextId: threadId }))) as never,
      );
      expect(done).toMatchObject({ id: taskId, status: { state: 'TASK_STATE_COMPLETED' } });
      expect(done.artifacts[0].parts[0].text).toMatch(finalText(outcome, invoice));
      const result = done.artifacts.find(
        (artifact: any) => artifact.artifactId === `tool-result-${question?.toolCallId}`,
      );
      expect(result.parts[0].data).toMatchObject({ toolName: 'send_invoice' });
      await expectResolved(outcome, a2a[outcome]);
    }
  });
});
