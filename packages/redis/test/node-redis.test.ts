import { describeStoreSuite } from './support/store-suite.js';
import { nodeRedisTargets } from './support/targets.js';

for (const target of nodeRedisTargets) describeStoreSuite(target);
