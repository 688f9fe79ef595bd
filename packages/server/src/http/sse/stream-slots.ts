/**
 * Open event streams per tenant, against a cap. Each open stream holds a reader (and on Redis a
 * place in the shared blocking read) for as long as its client stays connected, so one tenant's
 * idle clients must not be able to take what other tenants' runs need.
 */
export class StreamSlots {
  readonly #max: number;
  readonly #open = new Map<string, number>();

  constructor(maxPerTenant: number) {
    this.#max = maxPerTenant;
  }

  /** Takes a slot for `tenant`: the release function (idempotent), or `undefined` at the cap. */
  acquire(tenant: string): (() => void) | undefined {
    const open = this.#open.get(tenant) ?? 0;
    if (open >= this.#max) return undefined;
    this.#open.set(tenant, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(tenant) ?? 1) - 1;
      if (left > 0) this.#open.set(tenant, left);
      else this.#open.delete(tenant);
    };
  }

  /** Streams `tenant` has open. */
  open(tenant: string): number {
    return this.#open.get(tenant) ?? 0;
  }
}
