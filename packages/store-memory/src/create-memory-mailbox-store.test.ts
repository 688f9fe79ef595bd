import type { MailboxStore } from '@awaken/contract';
import {
  type ManualClock,
  createManualClock,
  describeMailboxStoreConformance,
} from '@awaken/store-conformance';
import { createMemoryMailboxStore } from './create-memory-mailbox-store';

const clocks = new WeakMap<MailboxStore, ManualClock>();

describeMailboxStoreConformance({
  name: 'memory (manual clock)',
  async create() {
    const clock = createManualClock();
    const store = createMemoryMailboxStore({ now: clock.now });
    clocks.set(store, clock);
    return store;
  },
  clock: {
    async advance(store, ms) {
      clocks.get(store)?.advance(ms);
    },
  },
});

describeMailboxStoreConformance({
  name: 'memory (real clock)',
  async create() {
    return createMemoryMailboxStore();
  },
});
