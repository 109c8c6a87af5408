import { describe, it } from 'vitest';
import { memoryStore } from './memory-store';
import { describeStoreConformance } from '../testing/store-conformance';
import { describeOutboxConformance } from '../testing/outbox-conformance';

describeStoreConformance({ describe, it }, 'memoryStore', { create: () => memoryStore() });
describeOutboxConformance({ describe, it }, 'memoryStore', { create: () => memoryStore() });
