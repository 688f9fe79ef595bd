import { describe, expect, it } from 'vitest';
import { RemoteTask } from './remote-task';

const ids = { taskId: 't', contextId: 'c' };

describe('RemoteTask', () => {
  it('folds a snapshot, appended chunks and status updates into the task a call reports', () => {
    const remote = new RemoteTask({ id: '', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } });
    remote.apply({
      task: {
        id: 't',
        contextId: 'c',
        status: { state: 'TASK_STATE_WORKING' },
        artifacts: [{ artifactId: 'answer', parts: [{ text: 'one ' }] }],
      },
    });
    remote.apply({
      artifactUpdate: { ...ids, artifact: { artifactId: 'answer', parts: [{ text: 'two' }] }, append: true },
    });
    remote.apply({
      artifactUpdate: { ...ids, artifact: { artifactId: 'tool-result-x', parts: [{ data: { output: 1 } }] } },
    });
    remote.apply({
      statusUpdate: {
        ...ids,
        status: {
          state: 'TASK_STATE_INPUT_REQUIRED',
          message: {
            messageId: 'm',
            role: 'ROLE_AGENT',
            parts: [{ text: 'Approve?' }, { data: { approvalId: 'a1' } }],
          },
        },
      },
    });
    expect(remote.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(remote.text()).toBe('one two');
    expect(remote.data()).toEqual([{ output: 1 }]);
    expect(remote.question()).toEqual({ text: 'Approve?', requests: [{ approvalId: 'a1' }] });
    // a chunk without append replaces the artifact
    remote.apply({
      artifactUpdate: { ...ids, artifact: { artifactId: 'answer', parts: [{ text: 'fresh' }] } },
    });
    expect(remote.text()).toBe('fresh');
  });
});
