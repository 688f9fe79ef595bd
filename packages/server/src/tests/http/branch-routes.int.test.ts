import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  type BranchFixture,
  branchBackends,
  createBranchFixture,
  transcriptOf,
} from '../../../test-support/branch-fixture';

type Stored = { message: { role: string; content?: unknown; text?: string; toolName?: string } };
const lines = (records: Stored[]) =>
  records.map(({ message }) =>
    message.role === 'tool'
      ? `tool:${message.toolName}`
      : `${message.role}:${message.content ?? message.text}`,
  );

describe.each(branchBackends({ redisUrl: inject('redisUrl'), postgresUrl: inject('postgresUrl') }))(
  'thread branches over HTTP on $name',
  (backend) => {
    let fx: BranchFixture;
    beforeEach(async () => {
      fx = await createBranchFixture(backend.create());
    });
    afterEach(() => fx.close());

    /** A 3-turn conversation: 6 messages. */
    async function conversation(): Promise<{ threadId: string; messages: string[] }> {
      const { threadId } = await fx.run('q1');
      await fx.run('q2', threadId);
      await fx.run('q3', threadId);
      const read = await fx.json(`/v1/threads/${threadId}/messages`);
      return { threadId, messages: lines(read.body.items) };
    }

    /** A 5-turn conversation with two tool calls: 14 messages. */
    async function withTools(): Promise<{ threadId: string; messages: string[] }> {
      const { threadId } = await fx.run('q1');
      for (const input of ['q2 tool', 'q3', 'q4 tool', 'q5']) await fx.run(input, threadId);
      const read = await fx.json(`/v1/threads/${threadId}/messages`);
      return { threadId, messages: lines(read.body.items) };
    }

    it('branches every message of a 5-turn conversation with tools; runs on them re-run no tool', async () => {
      const { threadId, messages } = await withTools();
      expect(messages).toEqual([
        'user:q1',
        'assistant:re:q1#1',
        'user:q2 tool',
        'assistant:',
        'tool:lookup',
        'assistant:re:q2 tool#5',
        'user:q3',
        'assistant:re:q3#7',
        'user:q4 tool',
        'assistant:',
        'tool:lookup',
        'assistant:re:q4 tool#11',
        'user:q5',
        'assistant:re:q5#13',
      ]);
      expect(fx.toolRuns).toEqual(['q2 tool', 'q4 tool']);
      const source = (await fx.json(`/v1/threads/${threadId}`)).body;
      for (let atSeq = 0; atSeq <= messages.length; atSeq += 1) {
        const branch = (await fx.json(`/v1/threads/${threadId}/branches`, { body: { atSeq } })).body;
        expect(lines((await fx.json(`/v1/threads/${branch.id}/messages`)).body.items)).toEqual(
          messages.slice(0, atSeq),
        );
        const calls = fx.requests.length;
        await fx.run(`next ${atSeq}`, branch.id);
        // the model saw the prefix and the new message, nothing after the cut
        expect(transcriptOf(fx.requests[calls] ?? { messages: [] })).toEqual([
          ...messages.slice(0, atSeq),
          `user:next ${atSeq}`,
        ]);
        // a cut between a tool call and its result leaves the call unanswered: the run never
        // executes it, it ends it `cancelled` when it finishes
        const dangling = messages[atSeq - 1] === 'assistant:';
        const read = await fx.json(`/v1/threads/${branch.id}/messages`);
        expect(lines(read.body.items)).toEqual([
          ...messages.slice(0, atSeq),
          `user:next ${atSeq}`,
          `assistant:re:next ${atSeq}#${atSeq + 1}`,
          ...(dangling ? ['tool:lookup'] : []),
        ]);
        if (dangling) expect(read.body.items.at(-1).message.outcome).toBe('cancelled');
      }
      // no tool of the prefix ran again, and the source is as it was
      expect(fx.toolRuns).toEqual(['q2 tool', 'q4 tool']);
      expect((await fx.json(`/v1/threads/${threadId}`)).body).toEqual(source);
      expect(lines((await fx.json(`/v1/threads/${threadId}/messages`)).body.items)).toEqual(messages);
      expect((await fx.json(`/v1/threads/${threadId}/branches?limit=1000`)).body.items).toHaveLength(15);
    });

    it('branches at every message: each branch reads the prefix, the source stays as it was', async () => {
      const { threadId, messages } = await conversation();
      expect(messages).toEqual([
        'user:q1',
        'assistant:re:q1#1',
        'user:q2',
        'assistant:re:q2#3',
        'user:q3',
        'assistant:re:q3#5',
      ]);
      const source = (await fx.json(`/v1/threads/${threadId}`)).body;
      const made: string[] = [];
      for (let atSeq = 0; atSeq <= messages.length; atSeq += 1) {
        const created = await fx.json(`/v1/threads/${threadId}/branches`, { body: { atSeq } });
        expect(created.status).toBe(201);
        expect(created.body.branchOf).toEqual({ threadId, seq: atSeq });
        made.push(created.body.id);
        const read = await fx.json(`/v1/threads/${created.body.id}/messages`);
        expect(lines(read.body.items)).toEqual(messages.slice(0, atSeq));
      }
      expect((await fx.json(`/v1/threads/${threadId}`)).body).toEqual(source);
      expect(lines((await fx.json(`/v1/threads/${threadId}/messages`)).body.items)).toEqual(messages);
      const listed = await fx.json(`/v1/threads/${threadId}/branches?limit=4`);
      expect(listed.body.items.map((thread: { id: string }) => thread.id)).toEqual(made.slice(0, 4));
      const rest = await fx.json(
        `/v1/threads/${threadId}/branches?cursor=${encodeURIComponent(listed.body.nextCursor)}`,
      );
      expect(rest.body.items.map((thread: { id: string }) => thread.id)).toEqual(made.slice(4));
      const atTwo = await fx.json(`/v1/threads/${threadId}/branches?atSeq=2`);
      expect(atTwo.body.items.map((thread: { id: string }) => thread.id)).toEqual([made[2]]);
    });

    it('runs on a branch with the prefix + its own messages as history; a branch of it too', async () => {
      const { threadId, messages } = await conversation();
      const branch = (await fx.json(`/v1/threads/${threadId}/branches`, { body: { atSeq: 2 } })).body;
      const before = fx.requests.length;
      await fx.run('q2 again', branch.id);
      expect(fx.requests.length).toBe(before + 1);
      expect(transcriptOf(fx.requests[before] ?? { messages: [] })).toEqual([
        'user:q1',
        'assistant:re:q1#1',
        'user:q2 again',
      ]);
      const read = await fx.json(`/v1/threads/${branch.id}/messages`);
      expect(lines(read.body.items)).toEqual([
        ...messages.slice(0, 2),
        'user:q2 again',
        'assistant:re:q2 again#3',
      ]);
      expect(read.body.items.map((record: { seq: number }) => record.seq)).toEqual([1, 2, 3, 4]);
      // paging by seq crosses the prefix boundary
      const page = await fx.json(`/v1/threads/${branch.id}/messages?after=1&limit=2`);
      expect(lines(page.body.items)).toEqual(['assistant:re:q1#1', 'user:q2 again']);
      // the source is unchanged
      expect(lines((await fx.json(`/v1/threads/${threadId}/messages`)).body.items)).toEqual(messages);
      // a branch of the branch, inside its own messages
      const nested = (await fx.json(`/v1/threads/${branch.id}/branches`, { body: { atSeq: 3 } })).body;
      await fx.run('another', nested.id);
      expect(transcriptOf(fx.requests.at(-1) ?? { messages: [] })).toEqual([
        'user:q1',
        'assistant:re:q1#1',
        'user:q2 again',
        'user:another',
      ]);
      // a thread with branches is not deleted (409); its branches first, then it
      const refused = await fx.json(`/v1/threads/${threadId}`, { method: 'DELETE' });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('conflict');
      // (the last run's dispatch may still be acking: the route refuses a busy thread with 409 too)
      await expect
        .poll(async () => (await fx.call(`/v1/threads/${nested.id}`, { method: 'DELETE' })).status, {
          timeout: 10_000,
        })
        .toBe(204);
      expect((await fx.call(`/v1/threads/${branch.id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await fx.call(`/v1/threads/${threadId}`, { method: 'DELETE' })).status).toBe(204);
    });

    it('answers bad input with 400/422 naming the field and unknown ids with 404', async () => {
      const { threadId } = await fx.run('q1');
      const path = `/v1/threads/${threadId}/branches`;
      const malformed = await fx.json(path, { raw: '{"atSeq": ' });
      expect(malformed.status).toBe(400);
      for (const body of [{}, { atSeq: -1 }, { atSeq: 1.5 }, { atSeq: '1' }, { atSeq: 1, colour: 'red' }]) {
        const refused = await fx.json(path, { body });
        expect(refused.status).toBe(422);
        expect(refused.body.error.message).toMatch('colour' in body ? /colour/ : /atSeq/);
      }
      const past = await fx.json(path, { body: { atSeq: 3 } });
      expect(past.status).toBe(404);
      expect(past.body.error.message).toContain('no message 3');
      const unknown = await fx.json('/v1/threads/nope/branches', { body: { atSeq: 0 } });
      expect(unknown.status).toBe(404);
      expect((await fx.json('/v1/threads/nope/branches')).status).toBe(404);
      const badQuery = await fx.json(`${path}?atSeq=-1`);
      expect(badQuery.status).toBe(422);
      expect(badQuery.body.error.message).toContain('atSeq');
      const named = await fx.json(path, { body: { atSeq: 1, id: 'my-branch' } });
      expect(named.status).toBe(201);
      expect((await fx.json(path, { body: { atSeq: 1, id: 'my-branch' } })).status).toBe(409);
      expect((await fx.json(path)).body.items.map((thread: { id: string }) => thread.id)).toEqual([
        'my-branch',
      ]);
    });
  },
);
