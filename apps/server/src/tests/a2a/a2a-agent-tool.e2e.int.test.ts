import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { a2aClient, rpc, sendParams, taskJson, ticketsOf } from '../../../test-support/a2a-client';
import { type AppProcess, startAppProcess } from '../../../test-support/app-process';

let remote: AppProcess;
let ours: AppProcess;
let env: Record<string, string>;
beforeAll(async () => {
  remote = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '10' });
  env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `e2e-a2a-tool-${randomUUID().slice(0, 8)}`,
    AWAKEN_A2A_REMOTE_URL: remote.url,
    AWAKEN_DEMO_DELAY_MS: '5',
    AWAKEN_LEASE_MS: '1500',
  };
  ours = await startAppProcess(env);
});
afterAll(async () => {
  await Promise.all([remote?.stop(), ours?.stop()]);
});

/** The remote agent's tasks started by our run (their context is derived from our call). */
async function remoteTasksOf(ourTaskId: string): Promise<Array<Record<string, any>>> {
  const listed = await rpc(
    `${remote.url}/v1/a2a`,
    { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: { pageSize: 100 } },
    { 'a2a-version': '1.0' },
  );
  return listed.body.result.tasks.filter((task: any) => task.contextId.startsWith(`awaken-${ourTaskId}-`));
}

const delegate = (app: AppProcess) => a2aClient(`${app.url}/v1/a2a/agents/delegate/`);

describe('a2aAgentTool: a remote A2A agent as a tool', () => {
  it('the remote approval becomes our ticket; our approval completes the remote task', async () => {
    const client = await delegate(ours);
    const asked = taskJson(
      (await client.sendMessage(sendParams([{ text: 'ask remote: delete /tmp/remote.txt' }]))) as never,
    );
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const [ticket] = ticketsOf(asked);
    expect(ticket).toMatchObject({ type: 'tool-approval-request', toolName: 'ask_remote' });
    expect(asked.status.message.parts[0].text).toMatch(/Approve ask_remote/);
    expect(ticket?.message).toBe('Approve delete_file({"path":"/tmp/remote.txt"})?');
    // an agent's endpoint sees only its own tasks; the default endpoint sees the tenant's
    const get = (path: string) =>
      rpc(
        `${ours.url}${path}`,
        { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: asked.id } },
        { 'a2a-version': '1.0' },
      );
    expect((await get('/v1/a2a/agents/demo')).body.error.code).toBe(-32001);
    expect((await get('/v1/a2a')).body.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const [waiting] = await remoteTasksOf(asked.id);
    expect(waiting?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(ticket?.approvalId).toBe(`a2a:${waiting?.id}:${ticketsOf(waiting!)[0]?.approvalId}`);

    const answer = { approved: true, approvalId: ticket?.approvalId };
    const done = taskJson(
      (await client.sendMessage(
        sendParams([{ data: answer }], { taskId: asked.id, contextId: asked.contextId }),
      )) as never,
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts[0].parts[0].text).toBe(
      'The remote agent says: I will delete /tmp/remote.txt. Done: I deleted /tmp/remote.txt.',
    );
    const result = done.artifacts.find(
      (artifact: any) => artifact.artifactId === `tool-result-${ticket?.toolCallId}`,
    );
    expect(result.parts[0].data.output).toMatchObject({
      taskId: waiting?.id,
      data: [{ toolName: 'delete_file', output: { deleted: '/tmp/remote.txt' } }],
    });
    const remoteTasks = await remoteTasksOf(asked.id);
    expect(remoteTasks.map((task) => [task.id, task.status.state])).toEqual([
      [waiting?.id, 'TASK_STATE_COMPLETED'],
    ]);
  });

  it('our denial is forwarded to the remote task: it completes with the refusal instead of waiting', async () => {
    const client = await delegate(ours);
    const asked = taskJson(
      (await client.sendMessage(sendParams([{ text: 'ask remote: delete /tmp/keep.txt' }]))) as never,
    );
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const [ticket] = ticketsOf(asked);
    const [waiting] = await remoteTasksOf(asked.id);
    expect(waiting?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');

    const answer = { approved: false, approvalId: ticket?.approvalId, reason: 'keep it' };
    const done = taskJson(
      (await client.sendMessage(
        sendParams([{ data: answer }], { taskId: asked.id, contextId: asked.contextId }),
      )) as never,
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts[0].parts[0].text).toContain('I did not run delete_file');
    expect(done.artifacts[0].parts[0].text).toContain('keep it');
    const remoteTasks = await remoteTasksOf(asked.id);
    expect(remoteTasks.map((task) => [task.id, task.status.state])).toEqual([
      [waiting?.id, 'TASK_STATE_COMPLETED'],
    ]);
  });

  it('kill -9 of our process mid-call: the restarted process continues the same remote task', async () => {
    const client = await delegate(ours);
    const submitted = taskJson(
      (await client.sendMessage(
        sendParams([{ text: 'ask remote: count to 250' }], {}, { returnImmediately: true }),
      )) as never,
    );
    await vi.waitFor(
      async () => {
        const [task] = await remoteTasksOf(submitted.id);
        expect(task?.status.state).toBe('TASK_STATE_WORKING');
      },
      { timeout: 15_000, interval: 50 },
    );
    await ours.kill();
    ours = await startAppProcess(env);
    const after = await delegate(ours);
    const done = await vi.waitFor(
      async () => {
        const task = taskJson(await after.getTask({ tenant: '', id: submitted.id }));
        expect(task.status.state).toBe('TASK_STATE_COMPLETED');
        return task;
      },
      { timeout: 30_000, interval: 200 },
    );
    const counted = `${Array.from({ length: 250 }, (_, index) => index + 1).join(' ')}.`;
    expect(done.artifacts[0].parts[0].text).toBe(`The remote agent says: ${counted}`);
    const remoteTasks = await remoteTasksOf(submitted.id);
    expect(remoteTasks).toHaveLength(1);
    expect(remoteTasks[0]?.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
