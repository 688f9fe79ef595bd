/**
 * What this activation knows about its run's control inbox between two peeks, so a gate can skip a
 * peek that cannot find anything: the activation listens to the inbox (`subscribe` resolved), the
 * last peek found it empty, and no wake-up arrived since that peek began. Every `'stored'` put
 * publishes a wake-up; one still in flight when a gate skips is the same as a put that lands just
 * after the gate (the next gate, the activation's end or the run's owner picks it up, as before).
 *
 * Only the run's gates may skip, and not the input gate a run ends after when it adds nothing (the
 * put of input that arrived while the model answered has returned, its wake-up may not have: that
 * input is answered before the run ends). The activation's first read, the lease tick's check and a
 * parked run's wait always peek, so a wake-up lost while the subscriber reconnected delays an entry by one
 * tick at most, never forever.
 *
 * A quiet activation (`quiet()`: a fresh child run driven inline by its parent, see `StartOptions`)
 * does not listen at all: its gates skip every peek, so only the lease tick's check and the gate
 * the run ends after read its inbox.
 */
export class InboxFreshness {
  #listening = false;
  #quiet = false;
  #wakeUps = 0;
  /** The wake-up count when the last peek that found nothing began; undefined when it found entries. */
  #emptyAt: number | undefined;
  /** Peeks begun; only the latest one's answer counts (an older one may answer after it). */
  #peeks = 0;

  /** The inbox subscription is active: from now on every put reaches `noteWakeUp`. */
  listening(): void {
    this.#listening = true;
  }

  /** The activation neither listens nor peeks at its gates (see the class comment). */
  quiet(): void {
    this.#quiet = true;
  }

  /** A put reached the run's inbox (the subscription's listener). */
  noteWakeUp(): void {
    this.#wakeUps += 1;
  }

  /** True when a peek now cannot find anything the last one did not. */
  get unchanged(): boolean {
    return this.#quiet || (this.#listening && this.#emptyAt === this.#wakeUps);
  }

  /** Peeks with `read` and remembers whether the inbox was empty as of the peek's start. */
  async peek<T>(read: () => Promise<readonly T[]>): Promise<readonly T[]> {
    const at = this.#wakeUps;
    const mine = ++this.#peeks;
    this.#emptyAt = undefined;
    const controls = await read();
    if (mine === this.#peeks) this.#emptyAt = controls.length === 0 ? at : undefined;
    return controls;
  }
}
