import { POOLS } from './pools';

/**
 * What one backend has handed out so far, so later operations can refer to it and results can be
 * compared although each backend generates its own ids and claim tokens: every generated value gets
 * a canonical alias (`dispatch#1`, `token#2`, ...) in order of first appearance. Both backends see
 * the same results in the same order, so equal behaviour gives equal aliases.
 */
export class BackendEnv {
  /** Dispatch ids in order of first appearance (what a `{ known: n }` reference names). */
  readonly dispatchIds: string[] = [];
  /** The claim tokens each dispatch was handed, oldest first. */
  readonly tokens = new Map<string, string[]>();
  /** The run each dispatch carries. */
  readonly runOf = new Map<string, string>();
  /** The run leases each run was granted (`{ runId, owner, fence }`), oldest first. */
  readonly leases = new Map<string, { runId: string; owner: string; fence: number }[]>();
  /** The shared store clock (milliseconds), as the driver last set it. */
  now = 0;
  readonly #aliases = new Map<string, string>();
  readonly #counters = new Map<string, number>();

  #alias(kind: string, value: string): void {
    if (this.#aliases.has(value) || POOLS.all.has(value)) return;
    const next = (this.#counters.get(kind) ?? 0) + 1;
    this.#counters.set(kind, next);
    this.#aliases.set(value, `${kind}#${next}`);
  }

  /**
   * Learns the ids and tokens of every dispatch and thread in `value` (a result), in order, and the
   * run leases it grants (what the `latest` / `earlier` lease and fence references name).
   */
  learn(value: unknown): void {
    if (Array.isArray(value)) {
      for (const item of value) this.learn(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (typeof record.dispatchId === 'string' && typeof record.status === 'string') {
      const { dispatchId, claimToken } = record;
      this.#alias('dispatch', dispatchId);
      if (!this.dispatchIds.includes(dispatchId)) this.dispatchIds.push(dispatchId);
      if (typeof record.runId === 'string') this.runOf.set(dispatchId, record.runId);
      if (typeof claimToken === 'string') {
        this.#alias('token', claimToken);
        const tokens = this.tokens.get(dispatchId) ?? [];
        if (!tokens.includes(claimToken)) tokens.push(claimToken);
        this.tokens.set(dispatchId, tokens);
      }
    }
    if (typeof record.id === 'string' && typeof record.metadata === 'object')
      this.#alias('thread', record.id);
    if (
      typeof record.runId === 'string' &&
      typeof record.owner === 'string' &&
      typeof record.fence === 'number' &&
      typeof record.leaseUntil === 'number'
    ) {
      // a run lease (acquired, or renewed: the same fence again)
      const { runId, owner, fence } = record;
      const granted = this.leases.get(runId) ?? [];
      if (granted.at(-1)?.fence !== fence) granted.push({ runId, owner, fence });
      this.leases.set(runId, granted);
    }
    for (const member of Object.values(record)) {
      if (typeof member === 'object') this.learn(member);
    }
  }

  /** The fence of the latest lease `runId` was granted (0 when none was). */
  fenceOf(runId: unknown): number {
    return (typeof runId === 'string' ? this.leases.get(runId)?.at(-1)?.fence : undefined) ?? 0;
  }

  /** `value` with every generated id and token replaced by its alias. */
  canonical(value: unknown): unknown {
    if (typeof value === 'string') return this.#aliases.get(value) ?? value;
    if (Array.isArray(value)) return value.map((item) => this.canonical(item));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, this.canonical(member)]));
  }
}
