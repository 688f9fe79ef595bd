import { describeRunControlInboxConformance } from '@awaken/store-conformance';
import { inject } from 'vitest';
import { RedisRunControlInbox } from './redis-run-control-inbox';
import { redisHarnessParts } from '../test-support/redis-harness';

describeRunControlInboxConformance({
  name: 'redis',
  ...redisHarnessParts(inject('redisUrl'), (options) => new RedisRunControlInbox(options)),
});
