import { describeDecisionInboxConformance } from '@awaken/store-conformance';
import { inject } from 'vitest';
import { RedisDecisionInbox } from './redis-decision-inbox';
import { redisHarnessParts } from './testing/redis-harness';

describeDecisionInboxConformance({
  name: 'redis',
  ...redisHarnessParts(inject('redisUrl'), (options) => new RedisDecisionInbox(options)),
});
