import type { AgentEvent } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENT_ID, type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

const WAIT = { timeout: 10_000, interval: 20 };

interface Frame {
  id: string;
  event: AgentEvent;
}

/** Reads an open SSE body frame by frame, keeping what it read. */
function sseReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const frames: Frame[] = [];
  return {
    frames,
    /** Reads until `done(frames)` holds (or the stream ends). */
    async until(done: (frames: Frame[]) => boolean): Promise<Frame[]> {
      while (!done(frames)) {
        const { value, done: ended } = await reader.read();
        if (ended) throw new Error(`stream ended after ${frames.length} frames`);
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          const id = /^id: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (id !== undefined && data !== undefined) frames.push({ id, event: JSON.parse(data) });
        }
      }
      return frames;
    },
    close: () => reader.cancel(),
  };
}

function threadEvents(threadId: string, lastEventId?: string): Promise<Response> {
  return fx.call(`/v1/threads/${threadId}/events`, {
    ...(lastEventId ? { headers: { 'last-event-id': lastEventId } } : {}),
  });
}

async function submit(threadId: string, input: string): Promise<string> {
  const submitted = await fx.json('/v1/runs', {
    body: { agentId: AGENT_ID, threadId, input, stream: false, ifBusy: 'queue' },
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
  return submitted.body.runId;
}

async function runDone(runId: string): Promise<void> {
  await vi.waitFor(async () => {
    expect((await fx.json(`/v1/runs/${runId}`)).body.status).toBe('done');
  }, WAIT);
}

const finishes = (frames: Frame[], runId: string) =>
  frames.filter((frame) => frame.event.runId === runId && frame.event.type === 'run_finish').length;

describe('GET /v1/threads/:threadId/events', () => {
  it('replays every run of the thread in order after a reconnect, with one started by an expiry while nobody listened, then a new run live', async () => {
    const thread = (await fx.json('/v1/threads', { body: {} })).body;
    const first = await submit(thread.id, 'plain #first');
    await runDone(first);

    // a client follows the thread and goes away after the first run
    const before = sseReader(await threadEvents(thread.id));
    await before.until((frames) => finishes(frames, first) === 1);
    const lastSeen = before.frames.at(-1)!.id;
    expect(lastSeen).toBe(`${first}:${before.frames.at(-1)!.event.seq}`);
    await before.close();

    // while nobody listens: a run that asks, is moved on by its expiry (a server-started
    // activation of the same run), and finishes; then a third run
    const expiring = await submit(thread.id, 'expire:150');
    await runDone(expiring);
    const third = await submit(thread.id, 'plain #third');
    await runDone(third);

    const after = sseReader(await threadEvents(thread.id, lastSeen));
    const replayed = await after.until((frames) => finishes(frames, third) === 1);
    // nothing of the first run again; the expiring run (both activations), then the third
    expect(replayed.some((frame) => frame.event.runId === first)).toBe(false);
    const runsInOrder = replayed.map((frame) => frame.event.runId).filter((id, i, all) => all[i - 1] !== id);
    expect(runsInOrder).toEqual([expiring, third]);
    const expiringFrames = replayed.filter((frame) => frame.event.runId === expiring);
    expect(expiringFrames.map((frame) => frame.event.seq)).toEqual(
      expiringFrames.map((_, index) => index + 1),
    );
    expect(expiringFrames.map((frame) => frame.id)).toEqual(
      expiringFrames.map((frame) => `${expiring}:${frame.event.seq}`),
    );
    // it waited (run_finish suspended) and the expiry moved it on to a second run_finish
    expect(finishes(replayed, expiring)).toBe(2);
    expect(expiringFrames.some((frame) => frame.event.type === 'tool_call_suspended')).toBe(true);

    // a run started while the client is connected arrives live, on the same stream
    const live = await submit(thread.id, 'plain #live');
    const withLive = await after.until((frames) => finishes(frames, live) === 1);
    expect(withLive.filter((frame) => frame.event.runId === live)[0]?.event.type).toBe('run_start');
    await after.close();
  });

  it('with ?after=now sends only what happens from then on', async () => {
    const thread = (await fx.json('/v1/threads', { body: {} })).body;
    const old = await submit(thread.id, 'plain #old');
    await runDone(old);
    const now = sseReader(await fx.call(`/v1/threads/${thread.id}/events?after=now`));
    const next = await submit(thread.id, 'plain #next');
    const frames = await now.until((seen) => finishes(seen, next) === 1);
    expect(frames.some((frame) => frame.event.runId === old)).toBe(false);
    expect(frames[0]?.id).toBe(`${next}:1`);
    await now.close();
  });

  it('answers 404 for an unknown thread and 422 for a bad or foreign Last-Event-ID', async () => {
    const unknown = await fx.json('/v1/threads/nope-thread/events');
    expect(unknown.status).toBe(404);
    const thread = (await fx.json('/v1/threads', { body: {} })).body;
    const bad = await threadEvents(thread.id, 'no-seq-here');
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.code).toBe('validation_failed');
    const foreign = await threadEvents(thread.id, 'run-of-another-thread:3');
    expect(foreign.status).toBe(422);
    expect(JSON.stringify(await foreign.json())).toContain('Last-Event-ID');
  });

  it('names the field the cursor came from, and refuses a cursor past the run’s last event (422, never a silent skip)', async () => {
    const thread = (await fx.json('/v1/threads', { body: {} })).body;
    const other = (await fx.json('/v1/threads', { body: {} })).body;
    const own = await submit(thread.id, 'plain #own');
    const foreignRun = await submit(other.id, 'plain #foreign');
    await runDone(own);
    await runDone(foreignRun);
    const viaQuery = await fx.json(`/v1/threads/${thread.id}/events?after=${foreignRun}:1`);
    expect(viaQuery.status).toBe(422);
    expect(viaQuery.body.error.details.issues[0].path).toBe('after');
    expect(viaQuery.body.error.message).not.toContain('Last-Event-ID');
    const forged = await threadEvents(thread.id, `${own}:999999`);
    expect(forged.status).toBe(422);
    const body = await forged.json();
    expect(body.error.details.issues[0].path).toBe('Last-Event-ID');
    expect(body.error.message).toContain('999999');
  });
});
