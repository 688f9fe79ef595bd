import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  type BranchFixture,
  branchBackends,
  createBranchFixture,
  transcriptOf,
} from '../../../test-support/branch-fixture';

const lines = (records: Array<{ message: { role: string; content?: string; text?: string } }>) =>
  records.map(({ message }) => `${message.role}:${message.content ?? message.text}`);

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
