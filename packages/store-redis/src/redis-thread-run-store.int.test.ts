import { describeThreadRunStoreConformance } from '@awaken/store-conformance';
import { inject } from 'vitest';
import { RedisThreadRunStore } from './redis-thread-run-store';
import { redisHarnessParts } from '../test-support/redis-harness';

describeThreadRunStoreConformance({
  name: 'redis',
  ...redisHarnessParts(inject('redisUrl'), (options) => new RedisThreadRunStore(options)),
});
