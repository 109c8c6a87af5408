import type { HostileCase } from './case';
import { framingCases } from './framing';
import { readerCases } from './reader-samples';
import { sizeCases } from './sizes';

/**
 * Every malformed or adversarial body and header of the catalog, each with the exact answer the
 * contract (docs/reference/errors.md) gives it: all of message framing, and a sample of each reader property
 * (the exhaustive reader tables are the core's unit tests).
 */
export const hostileCatalog: readonly HostileCase[] = [
  ...framingCases,
  ...readerCases,
  ...sizeCases,
];
