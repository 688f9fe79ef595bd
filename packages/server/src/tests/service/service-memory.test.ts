import { createMemoryCluster } from '../../../test-support/cluster';
import { describeServiceSuite } from '../../../test-support/service-suite';

// The embedded backend: the same suite, with the worker "processes" as services in this process.
describeServiceSuite('memory (one process)', () => createMemoryCluster(3), 300);
