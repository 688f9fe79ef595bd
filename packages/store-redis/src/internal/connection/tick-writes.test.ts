import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { holdWritesForTick } from './tick-writes';

/** A client shaped like ioredis's (status, stream) whose socket records each write it receives. */
function fakeClient(status = 'ready') {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      done();
    },
  });
  return { client: { status, stream }, stream, writes };
}

const tick = () => new Promise<void>((resolve) => process.nextTick(resolve));

describe('holdWritesForTick', () => {
  it("joins the tick's text writes into one write, in order, and writes directly again after the tick", async () => {
    const { client, stream, writes } = fakeClient();
    holdWritesForTick(client);
    stream.write('a');
    holdWritesForTick(client); // a second hold in the same tick changes nothing
    stream.write('b');
    await Promise.resolve();
    stream.write('c'); // from a promise callback of the same tick
    expect(writes).toEqual([]);
    await tick();
    expect(writes).toEqual(['abc']);
    stream.write('d');
    expect(writes).toEqual(['abc', 'd']);
  });

  it('sends what it gathered before a Buffer or a write with a callback, keeping the order', async () => {
    const { client, stream, writes } = fakeClient();
    holdWritesForTick(client);
    stream.write('a');
    stream.write(Buffer.from('B'));
    stream.write('c');
    stream.write('d', () => {});
    stream.write('e');
    await tick();
    expect(writes).toEqual(['a', 'B', 'c', 'd', 'e']);
  });

  it('leaves a client that is not ready (its commands wait in the offline queue) as it is', () => {
    const { client, stream, writes } = fakeClient('connecting');
    holdWritesForTick(client);
    stream.write('a');
    expect(writes).toEqual(['a']);
    expect(Object.hasOwn(stream, 'write')).toBe(false);
  });

  it('puts the socket back as it was after the tick', async () => {
    const { client, stream } = fakeClient();
    const before = stream.write;
    holdWritesForTick(client);
    expect(stream.write).not.toBe(before);
    await tick();
    expect(stream.write).toBe(before);
    expect(Object.hasOwn(stream, 'write')).toBe(false);
  });

  it('keeps a write wrapper someone installed on the socket during the tick, and still sends everything', async () => {
    const { client, stream, writes } = fakeClient();
    holdWritesForTick(client);
    stream.write('a');
    const seen: unknown[] = [];
    const underneath = stream.write;
    const wrapper = (chunk: unknown, ...rest: unknown[]) => {
      seen.push(chunk);
      return (underneath as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
    };
    stream.write = wrapper as typeof stream.write;
    stream.write('b');
    await tick();
    expect(writes).toEqual(['ab']);
    expect(stream.write).toBe(wrapper);
    stream.write('c');
    expect(writes).toEqual(['ab', 'c']);
    expect(seen).toEqual(['b', 'c']);
    holdWritesForTick(client);
    stream.write('d');
    await tick();
    expect(writes).toEqual(['ab', 'c', 'd']);
    expect(stream.write).toBe(wrapper);
  });
});
