import type { Cancellation } from '@plantstore/core';
import { describeValue, optionError } from '@plantstore/core/adapter';
import { abortError } from '@plantstore/core/store-kit';

/**
 * What the stores need of a client: `send`, as both `DynamoDBClient` (`@aws-sdk/client-dynamodb`)
 * and `DynamoDBDocumentClient` (`@aws-sdk/lib-dynamodb`) have it. The stores send the low-level
 * commands only; a document client passes those through untranslated, so no attribute value (an
 * id past 2^53 least of all) ever becomes a JavaScript number.
 */
export interface DynamoDbClientLike {
  send(command: never, options?: never): Promise<unknown>;
}

/** Which factory is checking, for messages. */
export type Factory = 'dynamoDbStore' | 'dynamoDbReplayStore';

/** A command of `@aws-sdk/client-dynamodb`, as the stores build them. */
export type Command = object;

/** Sends commands through the caller's client, with the call's abort signal. */
export type Sender = <T>(
  command: Command,
  cancelled?: Cancellation,
  signal?: AbortSignal,
) => Promise<T>;

type Send = (command: Command, options?: { abortSignal?: AbortSignal }) => Promise<unknown>;

/**
 * The sender of `client`, after checking that it is one.
 *
 * @throws TypeError when `client` has no `send` method
 */
export function senderOf(client: unknown, factory: Factory): Sender {
  const send = (client as { send?: unknown } | null | undefined)?.send;
  if (typeof client !== 'object' || client === null || typeof send !== 'function') {
    optionError(
      factory,
      'client',
      'must be a DynamoDBClient or a DynamoDBDocumentClient of the AWS SDK v3',
      describeValue(client),
    );
  }
  const bound = (send as Send).bind(client);
  return async <T>(command: Command, cancelled?: Cancellation, signal?: AbortSignal) => {
    try {
      return (await bound(
        command,
        signal === undefined ? undefined : { abortSignal: signal },
      )) as T;
    } catch (error) {
      // The SDK rejects an aborted call with its own AbortError; the caller's reason says why.
      if (cancelled?.aborted === true) throw abortError(cancelled);
      throw error;
    }
  };
}
