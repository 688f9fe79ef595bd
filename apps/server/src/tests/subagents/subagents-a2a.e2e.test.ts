import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  a2aClient,
  answerText,
  collect,
  lastStatus,
  sendParams,
  ticketsOf,
} from '../../../test-support/a2a-client';
import { type AppProcess, startAppProcess } from '../../../test-support/app-process';
import { JANITOR_PROMPT, deletions, runView } from './subagent-helpers';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '0' });
});
afterAll(async () => {
  await app?.stop();
});

/** Asks the janitor over A2A (`@a2a-js/sdk`): the task ends input-required with the child's question. */
async function asked() {
  const a2a = await a2aClient(app.url);
  const first = await collect(a2a.sendMessageStream(sendParams([{ text: JANITOR_PROMPT }])));
  const task = first[0]?.task;
  const status = lastStatus(first);
  const [ticket] = ticketsOf({ status });
  return { a2a, task, status, ticket, ids: { taskId: task.id, contextId: task.contextId } };
}

describe('a sub-agent asks, through the @a2a-js/sdk client', () => {
  it('input-required on the parent task names the inner tool, input and agent path; continuing the task approves it in the child', async () => {
    const { a2a, status, ticket, ids } = await asked();
    expect(status?.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(status?.message.parts[0].text).toBe('Approve janitor › delete_file({"path":"/tmp/report.txt"})?');
    expect(ticket).toMatchObject({
      type: 'tool-approval-request',
      toolName: 'janitor',
      input: { task: 'delete /tmp/report.txt' },
      nested: {
        toolName: 'delete_file',
        input: { path: '/tmp/report.txt' },
        agentPath: ['demo', 'janitor'],
        runId: expect.stringMatching(/^sub_/),
      },
    });
    expect(await runView(app, ticket!.nested.runId)).toMatchObject({
      status: 'waiting',
      parentRunId: ids.taskId,
    });

    const answer = { approved: true, approvalId: ticket?.approvalId, toolCallId: ticket?.toolCallId };
    const second = await collect(a2a.sendMessageStream(sendParams([{ data: answer }], ids)));
    expect(lastStatus(second)?.state).toBe('TASK_STATE_COMPLETED');
    expect(answerText(second)).toBe('I will ask the janitor. The janitor deleted /tmp/report.txt.');
    expect(await deletions(app, ticket!.nested.runId)).toEqual(['succeeded']);
  });

  it('a denial on the task reaches the child: nothing deleted, the child ends, the task completes saying so', async () => {
    const { a2a, ticket, ids } = await asked();
    const answer = { approved: false, approvalId: ticket?.approvalId, reason: 'keep it' };
    const second = await collect(a2a.sendMessageStream(sendParams([{ data: answer }], ids)));
    expect(lastStatus(second)?.state).toBe('TASK_STATE_COMPLETED');
    expect(answerText(second)).toBe(
      'I will ask the janitor. The janitor did not delete /tmp/report.txt: "I did not run delete_file: keep it."',
    );
    expect(await deletions(app, ticket!.nested.runId)).toEqual(['cancelled']);
    expect((await runView(app, ticket!.nested.runId)).status).toBe('done');
  });
});
