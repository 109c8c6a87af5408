import { ConflictError } from '../errors/client-errors';
import { InternalServerError, ServiceUnavailableError } from '../errors/server-errors';
import { isPlantServiceError, type PlantServiceError } from '../errors/plant-service-error';
import type { PlantRecord, StoredPlant } from './plant';
import type { OwnerCheck } from './owner';
import type { Principal } from '../auth/principal';
import type { InsertResult, PlantStore, StoreContext } from './store';
import type { DeadlineList } from '../common/deadline-list';
import { TimedCall } from '../common/timed-call';
import { isTransientFailure } from './transient-failure';
import { reportedPlant } from '../store-kit/stored-plant';
import type { OutboxEvent } from '../events/outbox';
import type { PlantCreatedEvent } from '../events/cloud-event';

/** How long the store may take, what a client is told to wait when it cannot answer, who owns a plant. */
export interface StoreLimits {
  /** Whether a caller owns a stored plant, so that its identical create is a replay. */
  readonly isOwner: OwnerCheck;
  readonly timeoutMs: number;
  readonly retryAfter: number;
  /** The service's in-flight inserts, one timer for all (see {@link deadlineList}). */
  readonly deadlines: DeadlineList;
  /** Builds the create's `plant.created` event for the store to write, when events are on. */
  readonly eventOf?: PlantCreatedEvent | undefined;
}

/**
 * The context a store is handed, its {@link Cancellation}, and the insert's place in the deadline
 * list. Its `signal` is built only when a store reads it: Node 20 takes microseconds to make one, and
 * most stores never read it, or follow the time-out through `cancellation(context)` instead.
 */
export class StoreCall extends TimedCall<InsertResult> implements StoreContext {
  constructor(
    readonly principal: Principal,
    expiresAt: number,
    private readonly retryAfter: number,
    readonly event: OutboxEvent | undefined,
  ) {
    super(expiresAt);
  }

  run(store: PlantStore, plant: PlantRecord): Promise<InsertResult> {
    return this.settle(() => store.insert(plant, this));
  }

  protected timedOut(cause?: unknown): ServiceUnavailableError {
    return new ServiceUnavailableError('store_timeout', 'The store did not answer in time.', {
      retryAfter: this.retryAfter,
      ...(cause === undefined ? {} : { cause }),
    });
  }
}

/**
 * Creates a plant through the store and decides the outcome: created, a replay of the same plant by
 * its owner (both 200), or a conflict (409): another plant under the id, or the same plant stored
 * by another caller, answered alike. A store past its time-out is aborted and answered 503.
 *
 * @param store - the store
 * @param plant - the validated plant with its tenant and audit fields
 * @param principal - who creates it
 * @param limits - time-out, retry hint, the service's deadline list and the owner rule
 * @returns whether the plant was created now (false for a replay)
 * @throws {@link ConflictError}, {@link ServiceUnavailableError} or {@link InternalServerError}
 */
export async function insertPlant(
  store: PlantStore,
  plant: PlantRecord,
  principal: Principal,
  limits: StoreLimits,
): Promise<boolean> {
  const expiresAt = performance.now() + limits.timeoutMs;
  // Built before the store is called, whatever it answers: a replay's or a conflict's event is
  // never written (the store writes it only when it creates the plant).
  const call = new StoreCall(principal, expiresAt, limits.retryAfter, limits.eventOf?.(plant));
  limits.deadlines.add(call);
  let result: InsertResult;
  try {
    result = await call.run(store, plant);
  } catch (error) {
    // A store that rejects as soon as it is aborted must still read as the time-out it is.
    throw call.reason ?? storeFailure(error, limits.retryAfter);
  } finally {
    limits.deadlines.remove(call);
  }
  try {
    return judge(result, plant, principal, limits.isOwner);
  } catch (error) {
    // A result whose getters throw (a proxy, a driver's lazy row) is the store's failure too.
    if (isPlantServiceError(error)) throw error;
    throw new InternalServerError('store_failed', 'The store failed.', { cause: error });
  }
}

/** Whether `result` says created (true) or a replay (false); throws for a conflict or a bad answer. */
function judge(
  result: InsertResult,
  plant: PlantRecord,
  principal: Principal,
  isOwner: OwnerCheck,
): boolean {
  if (result?.created === true) return true;
  if (result?.created !== false) {
    throw new InternalServerError(
      'store_failed',
      'The store answered something other than an InsertResult.',
    );
  }
  // A replay acknowledges the plant under its id: a store that reports another plant (a bug, a
  // wrong key) must not have its answer taken for "already stored". The kit's check, once.
  let existing: StoredPlant;
  try {
    existing = reportedPlant(result.existing, plant.id);
  } catch (error) {
    throw new InternalServerError('store_failed', 'The store reported no plant of this id.', {
      cause: error,
    });
  }
  // The kit's check leaves the tag absent for a NULL one.
  const same = existing.name === plant.name && existing.tag === plant.tag;
  // The owner is asked whatever the content, and both outcomes other than a replay leave through
  // the one throw below: another caller's guess costs the same and reads the same as a conflict.
  const owned = isOwner(existing, principal);
  if (same && owned === true) return false;
  throw new ConflictError();
}

function storeFailure(error: unknown, retryAfter: number): PlantServiceError {
  // The host's retryAfter option, not the store's default, tells clients when to come back.
  if (error instanceof ServiceUnavailableError && error.retryAfter !== retryAfter) {
    return new ServiceUnavailableError(error.code, error.message, { cause: error, retryAfter });
  }
  if (isPlantServiceError(error)) {
    return error.status === 503
      ? error
      : new InternalServerError('store_failed', 'The store failed.', { cause: error });
  }
  // A dropped connection or a busy database is worth a retry: every store gets this mapping,
  // so a custom store's author need not rediscover it.
  if (isTransientFailure(error)) {
    return new ServiceUnavailableError('store_unavailable', 'The store is unavailable.', {
      cause: error,
      retryAfter,
    });
  }
  return new InternalServerError('store_failed', 'The store failed.', { cause: error });
}
