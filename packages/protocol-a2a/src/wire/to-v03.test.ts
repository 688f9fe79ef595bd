import { describe, expect, it } from 'vitest';
import { streamResponseV03 } from './to-v03';

const ids = { taskId: 't', contextId: 'c' };

describe('streamResponseV03', () => {
  it('tags kinds, lower-cases states and roles, and sets final on the status that closes the stream', () => {
    const asking = streamResponseV03({
      statusUpdate: {
        ...ids,
        status: {
          state: 'TASK_STATE_INPUT_REQUIRED',
          message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'ok?' }, { data: { a: 1 } }] },
        },
      },
    });
    expect(asking).toEqual({
      kind: 'status-update',
      ...ids,
      final: true,
      status: {
        state: 'input-required',
        message: {
          kind: 'message',
          messageId: 'm',
          role: 'agent',
          parts: [
            { kind: 'text', text: 'ok?' },
            { kind: 'data', data: { a: 1 } },
          ],
        },
      },
    });
    expect(
      streamResponseV03({ statusUpdate: { ...ids, status: { state: 'TASK_STATE_WORKING' } } }),
    ).toMatchObject({ final: false });
    expect(
      streamResponseV03({ task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_CANCELED' } } }),
    ).toMatchObject({ kind: 'task', status: { state: 'canceled' } });
  });
});
