import { describeRunEventLogConformance } from '@awaken/store-conformance';
import { inject } from 'vitest';
import { RedisRunEventLog } from './redis-run-event-log';
import { redisHarnessParts } from '../test-support/redis-harness';

describeRunEventLogConformance({
  name: 'redis',
  ...redisHarnessParts(inject('redisUrl'), (options) => new RedisRunEventLog(options)),
});
