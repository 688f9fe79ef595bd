import type { RunEventLog } from '@awaken/contract';
import {
  type ManualClock,
  createManualClock,
  describeRunEventLogConformance,
} from '@awaken/store-conformance';
import { createMemoryRunEventLog } from './create-memory-run-event-log';

const clocks = new WeakMap<RunEventLog, ManualClock>();

describeRunEventLogConformance({
  name: 'memory (manual clock)',
  async create() {
    const clock = createManualClock();
    const log = createMemoryRunEventLog({ now: clock.now });
    clocks.set(log, clock);
    return log;
  },
  clock: {
    async advance(log, ms) {
      clocks.get(log)?.advance(ms);
    },
  },
});

describeRunEventLogConformance({
  name: 'memory (real clock)',
  async create() {
    return createMemoryRunEventLog();
  },
});
