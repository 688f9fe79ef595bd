import { approve, deny } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { collect } from '../../../test-support/harness';
import { subAgentHarness } from '../../../test-support/sub-agents';

describe('a sub-agent asks: the question reaches the top-level run', () => {
  it('names the inner tool, its arguments and the agent path; approving resumes the child where it stopped', async () => {
    const { runtime, store, parentModel, janitor, listFiles, deleteFile } = subAgentHarness();
    const handle = runtime.run({ agentId: 'assistant', input: 'ask the janitor to delete /tmp/report.txt' });
    const events = collect(handle);
    const waiting = await handle.result;
    expect(waiting.status).toBe('waiting');
    const [ticket] = waiting.waiting!.tickets;
    expect(ticket).toMatchObject({
      toolName: 'janitor',
      action: 'confirm',
      message: expect.stringMatching(/^janitor › delete_file: Allow delete_file/),
      nested: {
        toolName: 'delete_file',
        arguments: { path: '/tmp/report.txt' },
        agentPath: ['assistant', 'janitor'],
        toolCallId: 'del_0',
      },
    });
    const child = await store.getRun(ticket!.nested!.runId);
    expect(child).toMatchObject({
      status: 'waiting',
      origin: 'internal',
      parentRunId: handle.runId,
      parentCallId: 'delegate_0',
      agentPath: ['assistant', 'janitor'],
    });
    expect((await events).map((event) => event.type)).toEqual(
      expect.arrayContaining(['subagent_start', 'subagent_finish', 'tool_call_suspended']),
    );
    expect([listFiles.count(), deleteFile.count(), janitor.callCount, parentModel.callCount]).toEqual([
      1, 0, 2, 1,
    ]);

    const done = await runtime.resumeRun(handle.runId, { decisions: [approve(ticket!)] }).result;
    expect(done.status).toBe('done');
    expect(done.response).toContain('janitor deleted /tmp/report.txt.');
    // the child's earlier tool and model turns were not repeated; the parent's model was called once more only
    expect([listFiles.count(), deleteFile.count(), janitor.callCount, parentModel.callCount]).toEqual([
      1, 1, 3, 2,
    ]);
    expect((await store.getRun(ticket!.nested!.runId))?.status).toBe('done');
  });

  it('denying reaches the child: it answers from the denial and no child is left waiting', async () => {
    const { runtime, store, deleteFile } = subAgentHarness();
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'delete it' });
    const [ticket] = first.waiting!.tickets;
    const done = await runtime.resumeRun(first.runId, { decisions: [deny(ticket!, 'keep it')] }).result;
    expect(done.status).toBe('done');
    expect(done.response).toContain('janitor did not delete (cancelled');
    expect(done.response).toContain('keep it');
    expect(deleteFile.count()).toBe(0);
    expect((await store.getRun(ticket!.nested!.runId))?.status).toBe('done');
  });
});
