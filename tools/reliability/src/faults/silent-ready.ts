import { expect } from 'vitest';
import type { TcpProxy } from './tcp-proxy';

/**
 * Expects a store behind `proxy` to answer `ready()` with a 503 (`code`) within 7 s
 * once its pooled connections went silent (a fail-over, a partition), rather than wait for as long
 * as the kernel keeps their sockets.
 *
 * @param store - a store whose client reaches its server through `proxy`, and is ready
 * @param proxy - the proxy
 * @param code - the 503's code: `store_unavailable`, or a replay store's `replay_store_unavailable`
 */
export async function expectReadyRefusedOnceSilent(
  store: { ready(): Promise<void> },
  proxy: TcpProxy,
  code = 'store_unavailable',
): Promise<void> {
  await store.ready();
  proxy.freezeOpen();
  const since = Date.now();
  await expect(store.ready()).rejects.toMatchObject({ status: 503, code });
  expect(Date.now() - since).toBeLessThan(7_000);
}
