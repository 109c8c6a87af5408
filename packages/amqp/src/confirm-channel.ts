import type { ChannelModel, ConfirmChannel, Message } from 'amqplib';

/** One confirm channel as the sink uses it: the channel, and the ids the broker returned unroutable. */
export interface SinkChannel {
  readonly channel: ConfirmChannel;
  /** Takes `messageId` out of the returned ones: true when the broker returned it. */
  wasReturned(messageId: string): boolean;
  /** Stops listening on the channel; closes it when the sink opened it. */
  release(): Promise<void>;
}

/**
 * Follows one confirm channel: the messages the broker returns (a `mandatory` publish that no queue
 * took comes back before its ack), and, for a channel the sink opened, its end.
 *
 * @param channel - the channel
 * @param owned - true when the sink opened it (it closes it, and keeps its errors from crashing the process)
 * @param onClosed - called once the channel closed
 * @returns the followed channel
 * @example
 * ```ts
 * const followed = followChannel(await connection.createConfirmChannel(), true, () => {});
 * ```
 */
export function followChannel(
  channel: ConfirmChannel,
  owned: boolean,
  onClosed: () => void,
): SinkChannel {
  const returned = new Set<string>();
  const onReturn = (message: Message): void => {
    const id: unknown = message.properties.messageId;
    if (typeof id === 'string') returned.add(id);
  };
  // An owned channel's 'error' (a missing exchange, say) is the send's to report, through its
  // confirm callback; without a listener Node would throw it as an uncaught exception.
  const onError = (): void => {};
  channel.on('return', onReturn);
  channel.on('close', onClosed);
  if (owned) channel.on('error', onError);
  return {
    channel,
    wasReturned: (messageId) => returned.delete(messageId),
    async release() {
      channel.off('return', onReturn);
      channel.off('close', onClosed);
      if (!owned) return;
      await channel.close().catch(() => undefined);
      channel.off('error', onError);
    },
  };
}

/**
 * Opens the sink's confirm channel on the app's connection.
 *
 * @param connection - the app's amqplib connection
 * @param onClosed - called once the channel closed
 * @returns the followed channel
 * @example
 * ```ts
 * const followed = await openChannel(connection, () => (current = undefined));
 * ```
 */
export async function openChannel(
  connection: Pick<ChannelModel, 'createConfirmChannel'>,
  onClosed: () => void,
): Promise<SinkChannel> {
  return followChannel(await connection.createConfirmChannel(), true, onClosed);
}
