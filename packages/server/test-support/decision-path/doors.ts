import { approvalPart, askedTurn, continuation, readChat, userMessage } from '../chat-fixture';

/** One request to the server's HTTP app (`app.request`), authenticated, JSON in. */
export type Requester = (path: string, body?: unknown, headers?: Record<string, string>) => Promise<Response>;

/** A run one door left waiting for the approval of its call `a`, and how that door answers it. */
export interface WaitingRun {
  runId: string;
  /** Sends the approval through the door; resolves once the door's response is read to its end. */
  answer(): Promise<void>;
}

/** A way a client reaches a waiting run with a decision. */
export interface Door {
  name: string;
  /** Starts a run on thread `threadId` through this door and returns once it waits. */
  ask(threadId: string): Promise<WaitingRun>;
}

const A2A_V1 = { 'a2a-version': '1.0' };

async function expectStatus(response: Response, status: number, what: string): Promise<void> {
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${await response.text()}`);
}

/** The `data:` frames of a server-sent event stream, read to its end. */
async function sseData(response: Response): Promise<Array<Record<string, any>>> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice('data: '.length)));
}

/**
 * The four doors a decision comes through, each as its client sends it: the native decision route
 * (`POST /v1/runs/:id/decision`), an AI SDK chat continuation carrying the approved tool part, an
 * AG-UI `resume[]` entry for the run's interrupt, and an A2A `SendMessage` with the approval's data
 * part on the waiting task.
 */
export function doors(
  request: Requester,
  agentId: string,
  waitFor: (runId: string) => Promise<void>,
): Door[] {
  return [
    {
      name: 'REST decision route',
      async ask(threadId) {
        const submitted = await request('/v1/runs', { agentId, threadId, input: 'go', stream: false });
        await expectStatus(submitted, 202, 'submit');
        const { runId } = (await submitted.json()) as { runId: string };
        await waitFor(runId);
        return {
          runId,
          async answer() {
            const decided = await request(`/v1/runs/${runId}/decision`, {
              toolCallId: 'a',
              decisionId: `${runId}:a`,
              result: { approved: true },
            });
            await expectStatus(decided, 200, 'decision');
            await decided.text();
          },
        };
      },
    },
    {
      name: 'AI SDK chat',
      async ask(threadId) {
        const chat = `/v1/ai-sdk/agents/${agentId}/chat`;
        const first = await readChat(
          await request(chat, { id: threadId, trigger: 'submit-message', messages: [userMessage('go')] }),
        );
        if (first.status !== 200) throw new Error(`chat turn 1: ${JSON.stringify(first)}`);
        const turn = askedTurn(threadId, 'go', first);
        const [call] = turn.calls;
        if (!call?.approvalId) throw new Error('chat turn 1 asked for no approval');
        await waitFor(turn.messageId);
        return {
          runId: turn.messageId,
          async answer() {
            const resumed = await request(chat, continuation(turn, [approvalPart(call, true)]));
            await expectStatus(resumed, 200, 'chat continuation');
            await resumed.text();
          },
        };
      },
    },
    {
      name: 'AG-UI resume',
      async ask(threadId) {
        const run = `/v1/ag-ui/agents/${agentId}/run`;
        const runId = `${threadId}-run`;
        const messages = [{ id: `${threadId}-u1`, role: 'user', content: 'go' }];
        const events = await sseData(await request(run, { threadId, runId, messages }));
        const [interrupt] = events.at(-1)?.outcome?.interrupts ?? [];
        if (!interrupt)
          throw new Error(`AG-UI run 1 ended without an interrupt: ${JSON.stringify(events.at(-1))}`);
        await waitFor(runId);
        return {
          runId,
          async answer() {
            const resume = [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }];
            const resumed = await request(run, { threadId, runId: `${threadId}-resume`, messages, resume });
            await expectStatus(resumed, 200, 'AG-UI resume');
            const last = (await sseData(resumed)).at(-1);
            if (last?.type !== 'RUN_FINISHED')
              throw new Error(`AG-UI resume ended with ${JSON.stringify(last)}`);
          },
        };
      },
    },
    {
      name: 'A2A SendMessage',
      async ask(threadId) {
        const send = (id: string, message: Record<string, unknown>) =>
          request(
            '/v1/a2a',
            {
              jsonrpc: '2.0',
              id,
              method: 'SendMessage',
              params: { message: { role: 'ROLE_USER', ...message } },
            },
            A2A_V1,
          );
        const asked = await send('ask', { messageId: `${threadId}-m1`, parts: [{ text: 'go' }] });
        await expectStatus(asked, 200, 'A2A SendMessage');
        const { result } = (await asked.json()) as { result?: { task?: Record<string, any> } };
        const task = result?.task;
        const ticket = task?.status?.message?.parts?.find((part: any) => part.data)?.data;
        if (!task || !ticket?.approvalId)
          throw new Error(`A2A task does not wait: ${JSON.stringify(result)}`);
        await waitFor(task.id);
        return {
          runId: task.id,
          async answer() {
            const answered = await send('answer', {
              messageId: `${threadId}-m2`,
              taskId: task.id,
              contextId: task.contextId,
              parts: [{ data: { approved: true, approvalId: ticket.approvalId } }],
            });
            await expectStatus(answered, 200, 'A2A answer');
            const body = (await answered.json()) as { error?: unknown };
            if (body.error) throw new Error(`A2A answer: ${JSON.stringify(body.error)}`);
          },
        };
      },
    },
  ];
}
