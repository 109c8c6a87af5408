import { describe, it } from 'vitest';
import { memoryStore } from './memory-store';
import { describeStoreConformance } from '../testing/store-conformance';

describeStoreConformance({ describe, it }, 'memoryStore', { create: () => memoryStore() });
