import type { Redis } from 'ioredis';
import { toStoreError } from '../connection/redis-error';
import { holdWritesForTick } from '../connection/tick-writes';

/** The single-key reads a store may batch (each answered as its ioredis method answers it). */
export type BatchedRead =
  | ['hget', string, string]
  | ['hgetall', string]
  | ['lrange', string, number, number]
  | ['llen', string]
  | ['zrangebyscore' | 'zrevrangebyscore', string, string, string, 'WITHSCORES', 'LIMIT', number, number];

interface Pending {
  read: BatchedRead;
  resolve(reply: unknown): void;
  reject(error: unknown): void;
}

type Sender = Record<BatchedRead[0], (...args: unknown[]) => unknown>;

/**
 * Reads issued in the same tick leave together: each is queued, and once the tick's synchronous
 * code and promise callbacks have run (`process.nextTick` after the microtask queue drains) the
 * queue is sent as one explicit pipeline — one round trip for reads a caller starts side by side
 * (a run's history and its thread state), each answered with its own reply or its own error. A lone
 * read is sent as a plain command. `flush()` sends the queue at once: the store calls it before any
 * other command, so a read never overtakes a write issued after it on the same store. Nothing here
 * holds a command beyond the current tick (ioredis auto-pipelining stays off; see
 * connection/outage-tolerant-options.ts), and a read is never answered from anything but Redis.
 */
export class ReadBatch {
  readonly #redis: Redis;
  #queued: Pending[] = [];

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  read<T>(read: BatchedRead): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#queued.length === 0) process.nextTick(() => this.flush());
      this.#queued.push({ read, resolve: resolve as (reply: unknown) => void, reject });
    });
  }

  /** Sends every queued read now. */
  flush(): void {
    const queued = this.#queued;
    if (queued.length === 0) return;
    this.#queued = [];
    holdWritesForTick(this.#redis);
    if (queued.length === 1) {
      const [pending] = queued as [Pending];
      const [name, ...args] = pending.read;
      const sender = this.#redis as unknown as Sender;
      (sender[name](...args) as Promise<unknown>).then(pending.resolve, (error: unknown) =>
        pending.reject(toStoreError(error)),
      );
      return;
    }
    const pipeline = this.#redis.pipeline();
    const sender = pipeline as unknown as Sender;
    for (const { read } of queued) {
      const [name, ...args] = read;
      sender[name](...args);
    }
    pipeline.exec().then(
      (replies) => {
        queued.forEach((pending, index) => {
          const [error, reply] = replies?.[index] ?? [new Error('the read was not answered'), null];
          if (error) pending.reject(toStoreError(error));
          else pending.resolve(reply);
        });
      },
      (error: unknown) => {
        for (const pending of queued) pending.reject(toStoreError(error));
      },
    );
  }
}
