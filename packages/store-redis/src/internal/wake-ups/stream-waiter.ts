import type { Redis } from 'ioredis';
import { isCluster, masterFor } from '../cluster/cluster-topology';

/** How long one XREAD blocks before it is sent again (with the keys wanted by then). */
const BLOCK_MS = 2_000;
/** Pause between CLIENT UNBLOCK attempts sent before the XREAD reached the server. */
const UNBLOCK_RETRY_MS = 2;
const UNBLOCK_ATTEMPTS = 100;

interface Waiter {
  afterSeq: number;
  /** true: the stream holds an entry after `afterSeq`; false: timed out, aborted or closed. */
  settle(woken: boolean | Error): void;
}

/**
 * One blocking connection for every waiting tail of a store: a single `XREAD BLOCK` over the streams
 * of all runs being waited on (each after the lowest seq any of its waiters read), instead of a
 * connection per tail. A process serving hundreds of idle event streams therefore holds one
 * blocking Redis connection per store, not one per stream (Redis `maxclients` is shared by every
 * tenant and every worker). A tail whose stream or seq the XREAD in flight does not cover interrupts
 * it (`CLIENT UNBLOCK` from the command connection), and the next XREAD includes it.
 *
 * Only a wake-up is delivered (`COUNT 1`): the woken tail reads its page with `XRANGE` on the
 * command connection, so one slow stream never makes the shared reply large.
 */
export class StreamWaiter {
  readonly #base: Redis;
  /** On a cluster, the master serving the streams' slot (see the constructor); else the base. */
  #node: Redis | undefined;
  readonly #routeKey: string;
  readonly #waiters = new Map<string, Set<Waiter>>();
  #client: Redis | undefined;
  /** The blocking connection's CLIENT ID; undefined until known again after a (re)connect. */
  #clientId: number | undefined;
  #loop: Promise<void> | undefined;
  /** The seq each stream is read after by the XREAD in flight (none in flight: empty). */
  #covered = new Map<string, number>();
  #inFlight = 0;
  #unblocking = false;
  #closed = false;

  /** On a cluster, the XREAD goes to the master serving `routeKey`'s slot, which every stream shares. */
  constructor(base: Redis, routeKey = '') {
    this.#base = base;
    this.#routeKey = routeKey;
  }

  /**
   * Resolves `true` as soon as the stream `key` may hold an entry after `afterSeq` (spurious
   * wake-ups are possible: re-read), `false` after `waitMs` or when `signal` aborts. Rejects when
   * the blocking read fails (a lost connection).
   */
  wait(key: string, afterSeq: number, waitMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.#closed || signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve, reject) => {
      let waiters = this.#waiters.get(key);
      if (!waiters) {
        waiters = new Set();
        this.#waiters.set(key, waiters);
      }
      const set = waiters;
      const timer = setTimeout(() => waiter.settle(false), waitMs);
      const onAbort = () => waiter.settle(false);
      const waiter: Waiter = {
        afterSeq,
        settle: (woken) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          set.delete(waiter);
          if (set.size === 0 && this.#waiters.get(key) === set) this.#waiters.delete(key);
          if (woken instanceof Error) reject(woken);
          else resolve(woken);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      set.add(waiter);
      const covered = this.#covered.get(key);
      if (covered === undefined || covered > afterSeq) this.#interrupt();
      this.#startLoop();
    });
  }

  #startLoop(): void {
    if (this.#loop) return;
    this.#loop = this.#run().finally(() => {
      this.#loop = undefined;
      // a waiter that arrived as the loop was ending
      if (this.#waiters.size > 0 && !this.#closed) this.#startLoop();
    });
  }

  /** Settles every waiter with `false` and drops the blocking connection. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const waiters of [...this.#waiters.values()])
      for (const waiter of [...waiters]) waiter.settle(false);
    // disconnect, not QUIT: a QUIT would queue behind the blocked XREAD
    this.#client?.disconnect();
    this.#client = undefined;
    await this.#loop?.catch(() => undefined);
  }

  async #run(): Promise<void> {
    while (this.#waiters.size > 0 && !this.#closed) {
      let reply: [key: string, entries: [id: string, fields: string[]][]][] | null;
      try {
        const client = await this.#connection();
        // From here to the XREAD's send nothing awaits, so a waiter added later sees it in flight.
        const keys = [...this.#waiters.keys()];
        if (keys.length === 0) break;
        const after = keys.map((key) => lowestSeq(this.#waiters.get(key)));
        this.#covered = new Map(keys.map((key, index) => [key, after[index] ?? 0]));
        this.#inFlight += 1;
        try {
          reply = await client.xread(
            'COUNT',
            1,
            'BLOCK',
            BLOCK_MS,
            'STREAMS',
            ...keys,
            ...after.map((seq) => `0-${seq}`),
          );
        } finally {
          this.#inFlight -= 1;
          this.#covered = new Map();
        }
      } catch (error) {
        if (this.#closed) return;
        // every waiter hears of the failure; none keeps waiting on a connection that is gone
        for (const waiters of [...this.#waiters.values()])
          for (const waiter of [...waiters]) waiter.settle(error as Error);
        return;
      }
      for (const [key, entries] of reply ?? []) {
        const seq = Number(entries[0]?.[0].split('-')[1] ?? 0);
        for (const waiter of [...(this.#waiters.get(key) ?? [])])
          if (waiter.afterSeq < seq) waiter.settle(true);
      }
    }
  }

  /** Ends the XREAD in flight so the next one covers a new stream or a lower seq. */
  #interrupt(): void {
    if (this.#unblocking || this.#inFlight === 0) return;
    this.#unblocking = true;
    void (async () => {
      try {
        // CLIENT UNBLOCK answers 0 while the XREAD is still on its way to the server: try again, a
        // bounded number of times (after a reconnect the id is stale until the XREAD re-sent on the
        // new connection returns, at the latest after BLOCK_MS)
        for (let attempt = 0; attempt < UNBLOCK_ATTEMPTS; attempt += 1) {
          if (this.#inFlight === 0 || this.#closed || this.#clientId === undefined) return;
          const unblocked = await (this.#node ?? this.#base).client('UNBLOCK', this.#clientId).catch(() => 0);
          if (Number(unblocked) === 1) return;
          await new Promise((resolve) => setTimeout(resolve, UNBLOCK_RETRY_MS));
        }
      } finally {
        this.#unblocking = false;
      }
    })();
  }

  async #connection(): Promise<Redis> {
    if (this.#closed) throw new Error('the event log is closed');
    if (this.#client?.status === 'end') {
      // gone for good: on a cluster, a connection to a node never reconnects (ioredis waits for the
      // slot map to move instead), so after a failover the next XREAD goes to the slot's new master
      this.#client = undefined;
      this.#clientId = undefined;
      if (isCluster(this.#base)) this.#node = undefined;
    }
    if (!this.#client) {
      this.#node ??= isCluster(this.#base) ? await masterFor(this.#base, this.#routeKey) : this.#base;
      if (this.#closed) throw new Error('the event log is closed');
      if (this.#client) return this.#connection();
      const client = this.#node.duplicate();
      // Failures reach the waiting tails through the rejected XREAD; without a listener ioredis
      // would also print each connection error as an "Unhandled error event".
      client.on('error', () => undefined);
      // a new connection has a new CLIENT ID (asked for before the next XREAD, which would block it)
      client.on('ready', () => {
        this.#clientId = undefined;
      });
      this.#client = client;
    }
    const client = this.#client;
    if (this.#clientId === undefined) this.#clientId = Number(await client.client('ID'));
    if (this.#closed) throw new Error('the event log is closed');
    return client;
  }
}

function lowestSeq(waiters: Set<Waiter> | undefined): number {
  let lowest = Number.POSITIVE_INFINITY;
  for (const waiter of waiters ?? []) lowest = Math.min(lowest, waiter.afterSeq);
  return Number.isFinite(lowest) ? lowest : 0;
}
