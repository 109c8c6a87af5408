import { ConflictError } from '../errors/client-errors';
import { InternalServerError, ServiceUnavailableError } from '../errors/server-errors';
import { isPlantServiceError, type PlantServiceError } from '../errors/plant-service-error';
import type { NewPlant } from './plant';
import type { Principal } from '../auth/principal';
import type { InsertResult, PlantStore, StoreContext } from './store';
import type { DeadlineList } from '../common/deadline-list';
import { TimedCall } from '../common/timed-call';
import { isTransientFailure } from './transient-failure';

/** How long the store may take, what a client is told to wait when it cannot answer. */
export interface StoreLimits {
  readonly timeoutMs: number;
  readonly retryAfter: number;
  /** The service's in-flight inserts, one timer for all (see {@link deadlineList}). */
  readonly deadlines: DeadlineList;
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
  ) {
    super(expiresAt);
  }

  run(store: PlantStore, plant: NewPlant): Promise<InsertResult> {
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
 * Creates a plant through the store and decides the outcome: created, a replay of the same plant
 * (both 200), or a conflict (409). A store past its time-out is aborted and answered 503.
 *
 * @param store - the store
 * @param plant - the validated plant
 * @param principal - who creates it
 * @param limits - time-out, retry hint and the service's deadline list
 * @returns whether the plant was created now (false for a replay)
 * @throws {@link ConflictError}, {@link ServiceUnavailableError} or {@link InternalServerError}
 */
export async function insertPlant(
  store: PlantStore,
  plant: NewPlant,
  principal: Principal,
  limits: StoreLimits,
): Promise<boolean> {
  const call = new StoreCall(principal, performance.now() + limits.timeoutMs, limits.retryAfter);
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
    return judge(result, plant);
  } catch (error) {
    // A result whose getters throw (a proxy, a driver's lazy row) is the store's failure too.
    if (isPlantServiceError(error)) throw error;
    throw new InternalServerError('store_failed', 'The store failed.', { cause: error });
  }
}

/** Whether `result` says created (true) or a replay (false); throws for a conflict or a bad answer. */
function judge(result: InsertResult, plant: NewPlant): boolean {
  if (result?.created === true) return true;
  const existing =
    result?.created === false ? (result.existing as NewPlant | undefined) : undefined;
  if (
    typeof existing !== 'object' ||
    existing === null ||
    typeof existing.name !== 'string' ||
    !(existing.tag === undefined || existing.tag === null || typeof existing.tag === 'string')
  ) {
    throw new InternalServerError(
      'store_failed',
      'The store answered something other than an InsertResult.',
    );
  }
  // A replay acknowledges the plant under its id: a store that reports another plant (a bug, a
  // wrong key) must not have its answer taken for "already stored".
  if (!sameId(existing.id, plant.id)) {
    throw new InternalServerError(
      'store_failed',
      'The store reported an existing plant under another id than the one requested.',
    );
  }
  // Stores built on SQL hand back NULL for a missing tag; both mean "no tag".
  if (existing.name === plant.name && (existing.tag ?? undefined) === plant.tag) return false;
  throw new ConflictError();
}

/** The id a store reports, as a bigint or as the exact digits drivers return int8 in. */
function sameId(reported: unknown, requested: bigint): boolean {
  if (typeof reported === 'bigint') return reported === requested;
  if (typeof reported === 'string')
    return /^-?\d{1,19}$/u.test(reported) && BigInt(reported) === requested;
  return (
    typeof reported === 'number' && Number.isSafeInteger(reported) && BigInt(reported) === requested
  );
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
