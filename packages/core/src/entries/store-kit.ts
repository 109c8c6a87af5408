// `@plantstore/core/store-kit`: what every store does around its one atomic primitive, written once
// for the shipped stores and for yours: the close gate and the bounded `ready()`, the store's
// time-out and one bounded wait, the abort error, which failures are transient, the stored plant's
// check and the insert-or-read loop. Named exports only; `entries.test.ts` locks the list.

export { abortError } from '../store-kit/abort-error';
export { backgroundPrune, PRUNE_OPTION_NAMES } from '../store-kit/background-prune';
export type {
  BackgroundPrune,
  BackgroundPruneOptions,
  PruneOptions,
} from '../store-kit/background-prune';
export { gatedRemember } from '../store-kit/gated-remember';
export type { RememberStep } from '../store-kit/gated-remember';
export { insertOrRead } from '../store-kit/insert-or-read';
export type { InsertOrReadSteps } from '../store-kit/insert-or-read';
export { sinkGate } from '../events/sink-gate';
export type { SinkGate } from '../events/sink-gate';
export { storeGate } from '../store-kit/store-gate';
export type { StoreGate, StoreGateOptions, StoreLifecycle } from '../store-kit/store-gate';
export { storedPlant } from '../store-kit/stored-plant';
export type { StoredFields } from '../store-kit/stored-plant';
export {
  boundedWait,
  readyTimeoutOption,
  STORE_TIMEOUT_MS,
  TIMED_OUT,
} from '../store-kit/store-timeout';
export type { StoreTimeoutOptions } from '../store-kit/store-timeout';
export { findCause, isNetworkCode, isNetworkFailure, NETWORK_CODES } from '../store-kit/transient';
export { isTransientFailure } from '../plant/transient-failure';
export type {
  DeadEvent,
  DeliveryFailure,
  EventOutbox,
  OutboxEvent,
  PendingEvent,
} from '../events/outbox';
