import {
  DeleteItemCommand,
  GetItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type GetItemCommandOutput,
  type QueryCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { Cancellation } from '@plantstore/core';
import type { EventOutbox, StoreGate } from '@plantstore/core/store-kit';
import type { Sender } from '../client';
import type { Item } from '../plant-item';
import * as items from './outbox-items';

const PAGE = 100;
const QUEUES = (kind: 'due' | 'dead'): items.Queue[] =>
  Array.from({ length: items.SHARDS }, (_, shard): items.Queue => `${kind}#${shard}`);

const refused = (error: unknown, name: string): boolean =>
  (error as { name?: unknown } | null)?.name === name;

/**
 * The {@link EventOutbox} of a DynamoDB store, on the outbox table `ensureSchema()` creates beside
 * the plants' (the layout is in `outbox-items.ts`): pending events in a few shard partitions in
 * write order, dead ones in partitions of their own, an index item per event, and the lease as one
 * conditional `UpdateItem` judged by the relay's `now`. Every call goes through the store's gate,
 * bounded by the store time-out; every read is strongly consistent.
 *
 * @param send - the store's sender
 * @param gate - the store's gate
 * @param table - the outbox table's name
 * @returns the outbox
 * @example
 * ```ts
 * const outbox = dynamoDbOutbox(send, gate, 'plants.events');
 * ```
 */
export function dynamoDbOutbox(send: Sender, gate: StoreGate, table: string): EventOutbox {
  /** Up to `limit` queue items of `queue`, in order, filtered, reading at most `budget`. */
  const query = async (
    queue: items.Queue,
    limit: number,
    budget: number,
    now: number | undefined,
    cancelled: Cancellation,
  ): Promise<Item[]> => {
    const found: Item[] = [];
    let start: Record<string, unknown> | undefined;
    while (found.length < limit && budget > 0) {
      const filter = now === undefined ? {} : { FilterExpression: '#retryAt <= :now' };
      const page = await send<QueryCommandOutput>(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: '#pk = :queue',
          ...filter,
          ExpressionAttributeNames: {
            '#pk': 'pk',
            ...(now === undefined ? {} : { '#retryAt': 'retryAt' }),
          },
          ExpressionAttributeValues: {
            ':queue': { S: queue },
            ...(now === undefined ? {} : { ':now': { N: String(now) } }),
          },
          ConsistentRead: true,
          Limit: Math.min(budget, PAGE),
          ExclusiveStartKey: start as never,
        }),
        cancelled,
      );
      budget -= page.ScannedCount ?? PAGE;
      found.push(...((page.Items ?? []) as Item[]));
      start = page.LastEvaluatedKey;
      if (start === undefined) break;
    }
    return found.slice(0, limit);
  };
  /** The queues' items merged in write order, the first `limit`. */
  const merged = async (
    kind: 'due' | 'dead',
    limit: number,
    now: number | undefined,
    cancelled: Cancellation,
  ): Promise<Item[]> => {
    const budget = now === undefined ? Number.MAX_SAFE_INTEGER : items.dueBudget(limit);
    const pages = await Promise.all(
      QUEUES(kind).map((queue) => query(queue, limit, budget, now, cancelled)),
    );
    const all = pages.flat();
    all.sort((a, b) => (items.sortKeyOf(a) < items.sortKeyOf(b) ? -1 : 1));
    return all.slice(0, limit);
  };
  const get = async (key: Item, cancelled: Cancellation): Promise<Item | undefined> => {
    const get = new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true });
    return (await send<GetItemCommandOutput>(get, cancelled)).Item as Item | undefined;
  };
  const placeOf = async (id: string, cancelled: Cancellation) =>
    items.placeOf(await get(items.indexKey(id), cancelled));
  /**
   * Moves the event of queue item `item` from `from` to the queue `to` with a new state, in one
   * transaction with its index; a concurrent settlement that moved it first wins. True when moved.
   */
  const move = async (
    id: string,
    from: items.EventPlace,
    item: Item,
    to: items.Queue,
    state: { attempts: number; lastError: string | undefined },
    cancelled: Cancellation,
  ): Promise<boolean> => {
    const place = { queue: to, at: from.at };
    const event = items.pendingOf(item);
    const moved = items.queueItem(place, event, state.attempts, 0, state.lastError);
    const transaction = new TransactWriteItemsCommand({
      TransactItems: [
        {
          Delete: {
            TableName: table,
            Key: items.queueKey(from),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        { Put: { TableName: table, Item: moved } },
        { Put: { TableName: table, Item: items.indexItem(id, place) } },
      ],
    });
    return send(transaction, cancelled).then(
      () => true,
      (error: unknown) => {
        if (cancelled.aborted || !refused(error, 'TransactionCanceledException')) throw error;
        return false;
      },
    );
  };
  /** Moves dead event `id` back to its due queue, with no attempts. */
  const redriveOne = async (id: string, cancelled: Cancellation): Promise<boolean> => {
    const place = await placeOf(id, cancelled);
    if (place === undefined || !place.queue.startsWith('dead#')) return false;
    const item = await get(items.queueKey(place), cancelled);
    if (item === undefined) return false;
    const to = place.queue.replace('dead#', 'due#') as items.Queue;
    const state = { attempts: 0, lastError: items.pendingOf(item).lastError };
    return move(id, place, item, to, state, cancelled);
  };

  return {
    lease: (holder, ms, now) =>
      gate.bounded(async (cancelled) => {
        const update = new UpdateItemCommand({
          TableName: table,
          Key: items.LEASE_KEY,
          UpdateExpression: 'SET #holder = :holder, #ends = :ends',
          ConditionExpression: 'attribute_not_exists(#pk) OR #holder = :holder OR #ends <= :now',
          ExpressionAttributeNames: { '#pk': 'pk', '#holder': 'holder', '#ends': 'ends' },
          ExpressionAttributeValues: {
            ':holder': { S: holder },
            ':ends': { N: String(now.getTime() + ms) },
            ':now': { N: String(now.getTime()) },
          },
        });
        return send(update, cancelled).then(
          () => true,
          (error: unknown) => {
            if (cancelled.aborted || !refused(error, 'ConditionalCheckFailedException'))
              throw error;
            return false;
          },
        );
      }),
    release: (holder) =>
      gate.bounded(async (cancelled) => {
        const remove = new DeleteItemCommand({
          TableName: table,
          Key: items.LEASE_KEY,
          ConditionExpression: '#holder = :holder',
          ExpressionAttributeNames: { '#holder': 'holder' },
          ExpressionAttributeValues: { ':holder': { S: holder } },
        });
        await send(remove, cancelled).catch((error: unknown) => {
          if (cancelled.aborted || !refused(error, 'ConditionalCheckFailedException')) throw error;
        });
      }),
    due: (limit, now) =>
      gate.bounded(async (cancelled) =>
        (await merged('due', limit, now.getTime(), cancelled)).map(items.pendingOf),
      ),
    delivered: (ids) =>
      gate.bounded(async (cancelled) => {
        await Promise.all(
          ids.map(async (id) => {
            const place = await placeOf(id, cancelled);
            if (place === undefined) return;
            // The event first: an index left by a crash between the two only points at nothing.
            const remove = (key: Item) =>
              send(new DeleteItemCommand({ TableName: table, Key: key }), cancelled);
            await remove(items.queueKey(place));
            await remove(items.indexKey(id));
          }),
        );
      }),
    failed: (id, failure) =>
      gate.bounded(async (cancelled) => {
        const place = await placeOf(id, cancelled);
        if (place === undefined || !place.queue.startsWith('due#')) return;
        if (failure.retryAt !== undefined) {
          const update = new UpdateItemCommand({
            TableName: table,
            Key: items.queueKey(place),
            UpdateExpression: 'SET #attempts = :attempts, #retryAt = :retryAt, #lastError = :error',
            ConditionExpression: 'attribute_exists(#pk)',
            ExpressionAttributeNames: {
              '#pk': 'pk',
              '#attempts': 'attempts',
              '#retryAt': 'retryAt',
              '#lastError': 'lastError',
            },
            ExpressionAttributeValues: {
              ':attempts': { N: String(failure.attempts) },
              ':retryAt': { N: String(failure.retryAt.getTime()) },
              ':error': { S: failure.error },
            },
          });
          await send(update, cancelled).catch((error: unknown) => {
            if (cancelled.aborted || !refused(error, 'ConditionalCheckFailedException'))
              throw error;
          });
          return;
        }
        const item = await get(items.queueKey(place), cancelled);
        if (item === undefined) return;
        const to = place.queue.replace('due#', 'dead#') as items.Queue;
        const state = { attempts: failure.attempts, lastError: failure.error };
        await move(id, place, item, to, state, cancelled);
      }),
    dead: (limit) =>
      gate.bounded(async (cancelled) =>
        (await merged('dead', limit, undefined, cancelled)).map(items.deadOf),
      ),
    redrive: (ids) =>
      gate.bounded(async (cancelled) => {
        const chosen =
          ids ??
          (await merged('dead', Number.MAX_SAFE_INTEGER, undefined, cancelled)).map(
            (item) => items.pendingOf(item).id,
          );
        const moved = await Promise.all(chosen.map((id) => redriveOne(id, cancelled)));
        return moved.filter(Boolean).length;
      }),
  };
}
