import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approvalPart,
  continuation,
  createChatFixture,
  type ChatFixture,
} from '../../../test-support/chat-fixture';
import { type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';

/**
 * Bad decisions over HTTP: the decision route and the AI SDK chat continue.
 * A ticket id given as toolCallId, `__proto__` ids, huge strings, a deep result, a polluting result:
 * each a clear 4xx, never a 500, nothing applied; the run still takes a good answer.
 */
let fx: HttpFixture;
let chat: ChatFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
  chat = await createChatFixture({ workers: 0 });
});
afterAll(async () => {
  await fx.close();
  await chat.close();
});

function deep(levels: number): string {
  return `${'{"n":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

describe('hostile decision bodies on POST /v1/runs/:id/decision', () => {
  it('each is a 4xx with a clear error, never 500, nothing applied; then a good answer is accepted', async () => {
    const run = await startRun(fx, { input: 'approve:1' });
    const suspended = run.events.find((event) => event.type === 'tool_call_suspended');
    if (suspended?.type !== 'tool_call_suspended') throw new Error('no ticket');
    const { toolCallId } = suspended;
    const ticketId = suspended.ticket.suspension.id;
    const path = `/v1/runs/${run.runId}/decision`;
    const bodies: Array<[string, string]> = [
      ['ticket id as toolCallId', JSON.stringify({ toolCallId: ticketId, result: { approved: true } })],
      ['__proto__ toolCallId', JSON.stringify({ toolCallId: '__proto__', result: { approved: true } })],
      ['__proto__ ticketId', JSON.stringify({ ticketId: '__proto__', result: { approved: true } })],
      ['__proto__ key', `{"__proto__":{"toolCallId":"${toolCallId}"},"result":{"approved":true}}`],
      ['huge toolCallId', JSON.stringify({ toolCallId: 'x'.repeat(3_000_000), result: {} })],
      ['deep result', `{"toolCallId":"${toolCallId}","decisionId":"deep","result":${deep(20_000)}}`],
      ['NaN-ish updatedAt', JSON.stringify({ toolCallId, decisionId: 'nan', updatedAt: 'NaN' })],
      ['bad action', JSON.stringify({ toolCallId, action: 'explode' })],
      ['array', '[1,2,3]'],
      ['not json', '{"toolCallId":'],
      ['ticket of another call', JSON.stringify({ toolCallId: 'other', ticketId, result: {} })],
    ];
    const seen: Record<string, number> = {};
    for (const [label, raw] of bodies) {
      const response = await fx.call(path, { raw });
      seen[label] = response.status;
      const text = await response.text();
      expect(response.status, `${label}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${label}: ${text.slice(0, 300)}`).toBeLessThan(500);
      if (label === 'ticket id as toolCallId') expect(text).toContain('is a ticket id');
    }
    console.log('hostile decision statuses', seen);
    expect(({} as Record<string, unknown>).toolCallId).toBeUndefined();
    expect(await fx.counters.get(`exec:${run.runId}:${toolCallId}`)).toBeFalsy();
    const polluting = await fx.json(path, {
      raw: `{"toolCallId":"${toolCallId}","decisionId":"good","result":{"approved":true,"__proto__":{"polluted":1}}}`,
    });
    expect(polluting.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('hostile parts in an AI SDK chat continuation', () => {
  it('a ticket id as toolCallId, a __proto__ approval id, a huge id: 4xx, never 500, nothing applied', async () => {
    const turn = await chat.ask('hostile-chat', 'approve:1 #hostile');
    const [call] = turn.calls;
    const good = approvalPart(call!, true);
    const parts: Array<[string, unknown]> = [
      ['ticket id as toolCallId', { ...good, toolCallId: call!.approvalId }],
      ['__proto__ approval id', { ...good, approval: { id: '__proto__', approved: true } }],
      ['__proto__ toolCallId', { ...good, toolCallId: '__proto__' }],
      ['huge approval id', { ...good, approval: { id: 'x'.repeat(1_000_000), approved: true } }],
      ['approved not boolean', { ...good, approval: { id: call!.approvalId, approved: 'yes' } }],
    ];
    const seen: Record<string, number> = {};
    for (const [label, part] of parts) {
      const answer = await chat.send(continuation(turn, [part]));
      seen[label] = answer.status;
      expect(answer.status, `${label}: ${JSON.stringify(answer.error)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, label).toBeLessThan(500);
    }
    console.log('hostile chat statuses', seen);
    expect(await chat.stores.inbox.peek(turn.messageId)).toEqual([]);
    expect(await chat.send(continuation(turn, [good]))).toEqual({ status: 200 });
  });
});
