import { describe, expect, it } from 'vitest';
import { A2aError } from '../wire/a2a-errors';
import {
  readCancelTaskParams,
  readGetTaskParams,
  readListTasksParams,
  readSendParams,
  readSubscribeParams,
} from './read-params';

const message = (ids: Record<string, unknown>) => ({
  message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }], ...ids },
});

function refusal(read: () => unknown): A2aError {
  try {
    read();
  } catch (error) {
    if (error instanceof A2aError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('A2A ids follow the one id grammar of every door', () => {
  for (const bad of ['a\nb', 'nul\0', 'crlf\r\n', '..', '.', 'x'.repeat(257)]) {
    it(`a context or task id ${JSON.stringify(bad).slice(0, 20)} is -32602 naming the field`, () => {
      for (const [field, ids] of [
        ['params.message.contextId', { contextId: bad }],
        ['params.message.taskId', { taskId: bad }],
      ] as const) {
        const error = refusal(() => readSendParams(message(ids), '1.0'));
        expect(error.code).toBe(-32602);
        expect(error.details).toMatchObject({ field });
        expect(error.message).toContain(field);
      }
      for (const read of [readGetTaskParams, readCancelTaskParams, readSubscribeParams]) {
        expect(refusal(() => read({ id: bad })).details).toMatchObject({ field: 'params.id' });
      }
      expect(refusal(() => readListTasksParams({ contextId: bad })).details).toMatchObject({
        field: 'params.contextId',
      });
    });
  }

  it('ids any route can name pass', () => {
    const read = readSendParams(message({ contextId: 'ctx 日本 a..b', taskId: 't:1' }), '1.0');
    expect(read.message).toMatchObject({ contextId: 'ctx 日本 a..b', taskId: 't:1' });
  });
});
