import { ListTasksRequest } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  a2aClient,
  answerText,
  collect,
  lastStatus,
  sendParams,
  taskJson,
  ticketsOf,
} from '../../../test-support/a2a-client';
import { type AppProcess, startAppProcess } from '../../../test-support/app-process';

const TOKEN = 'a2a-token-tenant-one';
const OTHER = 'a2a-token-tenant-two';
let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({
    AWAKEN_TOKENS: `${TOKEN}:one,${OTHER}:two`,
    AWAKEN_DEMO_DELAY_MS: '5',
  });
});
afterAll(async () => {
  await app?.stop();
});

const client = () => a2aClient(app.url, { token: TOKEN });

describe('the @a2a-js/sdk client against the server', () => {
  it('streams a task to input-required, then approves it on the same task', async () => {
    const a2a = await client();
    const first = await collect(a2a.sendMessageStream(sendParams([{ text: 'delete /tmp/report.txt' }])));
    const task = first[0]?.task;
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(first.map((event) => Object.keys(event)[0])).toContain('statusUpdate');
    const asked = lastStatus(first);
    expect(asked?.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(asked?.message.parts[0].text).toBe('Approve delete_file({"path":"/tmp/report.txt"})?');
    const [ticket] = ticketsOf({ status: asked });
    expect(ticket).toMatchObject({
      type: 'tool-approval-request',
      toolName: 'delete_file',
      input: { path: '/tmp/report.txt' },
      responseSchema: { required: ['approved', 'approvalId'] },
    });
    expect(answerText(first)).toBe('I will delete /tmp/report.txt. ');

    const ids = { taskId: task.id, contextId: task.contextId };
    const answer = { approved: true, approvalId: ticket?.approvalId, toolCallId: ticket?.toolCallId };
    const second = await collect(a2a.sendMessageStream(sendParams([{ data: answer }], ids)));
    // the continuation starts with the same task, still asking, with what was streamed before
    expect(second[0]?.task).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    expect(lastStatus(second)?.state).toBe('TASK_STATE_COMPLETED');
    expect(answerText(second)).toBe('I will delete /tmp/report.txt. Done: I deleted /tmp/report.txt.');
    const result = second.find((event) =>
      event.artifactUpdate?.artifact.artifactId.startsWith('tool-result-'),
    );
    expect(result?.artifactUpdate.artifact).toMatchObject({
      artifactId: `tool-result-${ticket?.toolCallId}`,
      parts: [
        {
          data: {
            toolCallId: ticket?.toolCallId,
            toolName: 'delete_file',
            output: { deleted: '/tmp/report.txt' },
          },
        },
      ],
    });

    const stored = taskJson(await a2a.getTask({ tenant: '', id: task.id }));
    expect(stored.status.state).toBe('TASK_STATE_COMPLETED');
    expect(stored.artifacts.map((artifact: any) => artifact.artifactId)).toEqual([
      'answer',
      `tool-result-${ticket?.toolCallId}`,
    ]);
    expect(stored.artifacts[0].parts[0].text).toBe(answerText(second));
  });

  it('blocking send waits for input-required; a denial completes the task with the call denied', async () => {
    const a2a = await client();
    const asked = taskJson((await a2a.sendMessage(sendParams([{ text: 'delete /tmp/keep.txt' }]))) as never);
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const [ticket] = ticketsOf(asked);
    const ids = { taskId: asked.id, contextId: asked.contextId };
    const denial = { approved: false, approvalId: ticket?.approvalId, reason: 'keep it' };
    const done = taskJson((await a2a.sendMessage(sendParams([{ data: denial }], ids))) as never);
    expect(done.id).toBe(asked.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const denied = done.artifacts.find(
      (artifact: any) => artifact.artifactId === `tool-result-${ticket?.toolCallId}`,
    );
    expect(denied.parts[0].data).toMatchObject({ toolName: 'delete_file', denied: true });
    expect(done.artifacts[0].parts[0].text).toMatch(/I did not run delete_file/);
  });

  it('two parallel approvals answered one at a time: the task asks again for the rest', async () => {
    const a2a = await client();
    const asked = taskJson(
      (await a2a.sendMessage(sendParams([{ text: 'delete /tmp/a.txt and /tmp/b.txt' }]))) as never,
    );
    const tickets = ticketsOf(asked);
    expect(tickets.map((ticket) => ticket.input.path)).toEqual(['/tmp/a.txt', '/tmp/b.txt']);
    const ids = { taskId: asked.id, contextId: asked.contextId };
    const [a, b] = tickets;
    const partial = await collect(
      a2a.sendMessageStream(sendParams([{ data: { approved: true, approvalId: a?.approvalId } }], ids)),
    );
    const still = lastStatus(partial);
    expect(still?.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(ticketsOf({ status: still }).map((ticket) => ticket.approvalId)).toEqual([b?.approvalId]);
    expect(
      partial.some((event) => event.artifactUpdate?.artifact.artifactId === `tool-result-${a?.toolCallId}`),
    ).toBe(true);
    const done = taskJson(
      (await a2a.sendMessage(
        sendParams([{ data: { approved: true, approvalId: b?.approvalId } }], ids),
      )) as never,
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts[0].parts[0].text).toMatch(
      /Done: I deleted \/tmp\/a.txt\. Done: I deleted \/tmp\/b.txt\./,
    );
  });

  it('cancels a waiting task; a second cancel is TaskNotCancelable; a message to it is refused', async () => {
    const a2a = await client();
    const asked = taskJson((await a2a.sendMessage(sendParams([{ text: 'delete /tmp/c.txt' }]))) as never);
    const cancelled = taskJson(await a2a.cancelTask({ tenant: '', id: asked.id, metadata: undefined }));
    expect(cancelled.status.state).toBe('TASK_STATE_CANCELED');
    await expect(a2a.cancelTask({ tenant: '', id: asked.id, metadata: undefined })).rejects.toMatchObject({
      envelopeCode: -32002,
    });
    const [ticket] = ticketsOf(asked);
    const late = sendParams([{ data: { approved: true, approvalId: ticket?.approvalId } }], {
      taskId: asked.id,
      contextId: asked.contextId,
    });
    await expect(a2a.sendMessage(late)).rejects.toMatchObject({ envelopeCode: -32004 });
  });

  it('cancels a working task: the run ends cancelled, its stream closes CANCELED', async () => {
    const a2a = await client();
    const stream = a2a.sendMessageStream(sendParams([{ text: 'count to 2000' }]));
    const first = await stream.next();
    const task = taskJson((first.value as any).payload.value);
    const rest = collect({ [Symbol.asyncIterator]: () => stream });
    const cancelled = taskJson(await a2a.cancelTask({ tenant: '', id: task.id, metadata: undefined }));
    expect(cancelled.status.state).toBe('TASK_STATE_CANCELED');
    expect(lastStatus(await rest)?.state).toBe('TASK_STATE_CANCELED');
  });

  it('GetTask and ListTasks; a follow-up on the context is a new task on the same thread', async () => {
    const a2a = await client();
    const first = taskJson((await a2a.sendMessage(sendParams([{ text: 'weather in Paris' }]))) as never);
    expect(first.status.state).toBe('TASK_STATE_COMPLETED');
    const second = taskJson(
      (await a2a.sendMessage(
        sendParams([{ text: 'weather in Rome' }], { contextId: first.contextId }),
      )) as never,
    );
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    const got = taskJson(await a2a.getTask({ tenant: '', id: second.id, historyLength: 1 }));
    expect(got.history).toHaveLength(1);
    expect(got.artifacts[0].parts[0].text).toMatch(/in Rome/);
    const page = (pageToken: string) =>
      a2a.listTasks(ListTasksRequest.fromJSON({ contextId: first.contextId, pageSize: 1, pageToken }));
    const listed = await page('');
    expect(listed.totalSize).toBe(2);
    expect(listed.tasks.map((task) => task.id)).toEqual([second.id]);
    const next = await page(listed.nextPageToken);
    expect(next.tasks.map((task) => task.id)).toEqual([first.id]);
    expect(next.nextPageToken).toBe('');
  });

  it("another tenant's task is TaskNotFound", async () => {
    const mine = await client();
    const task = taskJson((await mine.sendMessage(sendParams([{ text: 'delete /tmp/t.txt' }]))) as never);
    const theirs = await a2aClient(app.url, { token: OTHER });
    await expect(theirs.getTask({ tenant: '', id: task.id })).rejects.toMatchObject({ envelopeCode: -32001 });
    await expect(theirs.cancelTask({ tenant: '', id: task.id, metadata: undefined })).rejects.toMatchObject({
      envelopeCode: -32001,
    });
    const [ticket] = ticketsOf(task);
    const answer = sendParams([{ data: { approved: true, approvalId: ticket?.approvalId } }], {
      taskId: task.id,
    });
    await expect(theirs.sendMessage(answer)).rejects.toMatchObject({ envelopeCode: -32001 });
    await mine.cancelTask({ tenant: '', id: task.id, metadata: undefined });
  });
});
