import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import type { Cancellation, StoredPlant } from '@plantstore/core';
import type { OutboxEvent } from '@plantstore/core/store-kit';
import type { Sender } from '../client';
import { plantOfItem, type Item } from '../plant-item';
import { newEventItems } from './outbox-items';

/** The plant's conditional put, as the store builds it for `PutItem`. */
export interface PlantPut {
  readonly TableName: string;
  readonly Item: Item;
  readonly ConditionExpression: string;
}

// A transaction that meets another on the same item is cancelled (`TransactionConflict`) rather
// than queued: 20 parallel creates of one id meet so. Tried again after a short pause, it finds
// the plant written and is cancelled for the plant's condition, which the store answers.
const CONFLICT_TRIES = 8;
const pause = (tries: number) =>
  new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20 * tries));

type Reasons = readonly ({ Code?: string; Item?: unknown } | undefined)[];

/**
 * Writes a new plant and its event in one `TransactWriteItems`: the plant's conditional put and
 * the event's queue and index items on the outbox table. Nothing is written when the plant exists.
 *
 * @returns true when created; when the plant's condition cancelled it, the stored plant where the
 *   endpoint returned it, else false (the caller reads it)
 * @example
 * ```ts
 * const created = await putWithEvent(send, put, 'plants.events', event, cancelled, signal, id);
 * ```
 */
export async function putWithEvent(
  send: Sender,
  put: PlantPut,
  eventsTable: string,
  event: OutboxEvent,
  cancelled: Cancellation,
  signal: AbortSignal | undefined,
  id: bigint,
): Promise<boolean | StoredPlant> {
  const [queued, index] = newEventItems(event);
  const command = new TransactWriteItemsCommand({
    TransactItems: [
      { Put: { ...put, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
      { Put: { TableName: eventsTable, Item: queued } },
      { Put: { TableName: eventsTable, Item: index } },
    ],
  });
  for (let tries = 1; ; tries += 1) {
    try {
      await send(command, cancelled, signal);
      return true;
    } catch (error) {
      const { name, CancellationReasons } = error as {
        name?: unknown;
        CancellationReasons?: Reasons;
      };
      if (cancelled.aborted || name !== 'TransactionCanceledException') throw error;
      const plant = CancellationReasons?.[0];
      if (plant?.Code === 'ConditionalCheckFailed') {
        return plant.Item === undefined ? false : plantOfItem(plant.Item, id);
      }
      const conflict = CancellationReasons?.some(
        (reason) => reason?.Code === 'TransactionConflict',
      );
      if (conflict !== true || tries >= CONFLICT_TRIES) throw error;
      await pause(tries);
    }
  }
}
