import { inject } from 'vitest';
import { createRedisCluster } from '../../../test-support/cluster';
import { describeServiceSuite } from '../../../test-support/service-suite';

// Three worker processes and the test process's api service over one real Redis.
describeServiceSuite('Redis (three worker processes)', () => createRedisCluster(inject('redisUrl'), 3), 300);
