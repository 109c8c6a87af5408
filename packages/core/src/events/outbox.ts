// The events contract between the core, the stores and the relay (issue #50). The core builds the
// `plant.created` event once (CloudEvents 1.0 JSON text) and hands it to the store with the plant;
// a store that has an `outbox` writes it in the same transaction as the plant, only when it creates
// the plant. The relay (`@plantstore/core/events`) reads the outbox and hands each event to a sink.

/**
 * A `plant.created` event as the core hands it to a store, to be written with the plant (in one
 * transaction, batch or script) when, and only when, the insert creates it: a replay or a conflict
 * writes nothing.
 */
export interface OutboxEvent {
  /** The CloudEvents `id`: a random UUID, unique per event. Consumers dedupe by it. */
  readonly id: string;
  /** The CloudEvents `type`. */
  readonly type: 'plant.created';
  /** The plant's tenant (`''` when tenants are off) and id: events of one key are delivered in order. */
  readonly tenant: string;
  readonly plantId: bigint;
  /** The CloudEvents `time`: the plant's `createdAt`. */
  readonly time: Date;
  /** The event as CloudEvents 1.0 structured-mode JSON text. A store keeps it byte for byte. */
  readonly body: string;
}

/** An event waiting in the outbox, as the outbox hands it to the relay. */
export interface PendingEvent extends OutboxEvent {
  /** Failed deliveries so far. */
  readonly attempts: number;
  /** The last failure, as the relay recorded it. */
  readonly lastError?: string | undefined;
}

/** An event the relay gave up on after its last allowed attempt: kept, listed, re-drivable. */
export interface DeadEvent extends PendingEvent {
  readonly lastError: string;
}

/** A failed delivery, as the relay records it. */
export interface DeliveryFailure {
  /** Failed deliveries including this one. */
  readonly attempts: number;
  /** What failed, short (a status, a broker's error), never a secret. */
  readonly error: string;
  /** When the event is due again; `undefined` makes it dead. */
  readonly retryAt: Date | undefined;
}

/**
 * The relay's side of a store that writes events: a lease so that one relay runs across the app's
 * instances, the due events oldest first, and their settlement. Every method is safe to call from
 * several processes at once; a store keeps what it settles durably before it resolves.
 *
 * @example
 * ```ts
 * const relay = eventRelay({ outbox: store.outbox, sink: webhookSink({ url, secret }) });
 * ```
 */
export interface EventOutbox {
  /**
   * Takes the relay lease for `holder`, or renews it, for `ms`: true while `holder` holds it, false
   * while another holder's lease has not expired.
   */
  lease(holder: string, ms: number, now: Date): Promise<boolean>;
  /** Gives the lease up, when `holder` holds it. */
  release(holder: string): Promise<void>;
  /** Up to `limit` events due at `now` (pending, never dead), oldest first (in the order written). */
  due(limit: number, now: Date): Promise<readonly PendingEvent[]>;
  /** Removes delivered events: a delivered event is never handed out again. */
  delivered(ids: readonly string[]): Promise<void>;
  /** Records a failed delivery of event `id`: due again at `failure.retryAt`, or dead. */
  failed(id: string, failure: DeliveryFailure): Promise<void>;
  /** Up to `limit` dead events, oldest first. */
  dead(limit: number): Promise<readonly DeadEvent[]>;
  /** Makes dead events (those of `ids`, else all) due now with no attempts; resolves how many. */
  redrive(ids?: readonly string[]): Promise<number>;
}
