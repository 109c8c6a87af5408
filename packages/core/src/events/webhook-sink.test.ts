import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore } from '../plant/memory-store';
import { storeRecord } from '../testing/store-context';
import { plantCreatedEvents } from './cloud-event';
import { eventRelay } from './event-relay';
import { webhookSink } from './webhook-sink';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const eventOf = plantCreatedEvents('/plants');

interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly verified: unknown;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A receiver on 127.0.0.1 that verifies each request with the official standardwebhooks package. */
async function receiver(status: (count: number) => number | 'hang' = () => 204) {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: unknown;
      try {
        verified = new Webhook(SECRET).verify(body, request.headers as Record<string, string>);
      } catch (error) {
        verified = error;
      }
      received.push({ headers: request.headers, body, verified });
      const answer = status(received.length);
      if (answer === 'hang') return;
      response.writeHead(answer, answer === 302 ? { location: 'http://127.0.0.1:1/' } : {});
      response.end('ignored');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received };
}

async function storeWithEvent(name = 'Fern 🌿 "x"') {
  const store = memoryStore();
  const record = storeRecord({ id: 9_007_199_254_740_993n, name });
  const event = eventOf(record);
  await store.insert(record, {
    principal: { subject: 's', scopes: [], claims: {} },
    signal: new AbortController().signal,
    event,
  });
  return { store, event };
}

const relayOf = (
  outbox: ReturnType<typeof memoryStore>['outbox'],
  url: string,
  sendTimeout = 5_000,
) => eventRelay({ outbox, sink: webhookSink({ url, secret: SECRET }), logger: false, sendTimeout });

describe('webhookSink', () => {
  it('POSTs the CloudEvent signed as Standard Webhooks say, verified by the official package', async () => {
    const { url, received } = await receiver();
    const { store, event } = await storeWithEvent();
    const relay = relayOf(store.outbox, url);
    expect(await relay.drain()).toMatchObject({ delivered: 1, failed: 0 });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.verified).toEqual(JSON.parse(event.body));
    expect(request?.body).toBe(event.body);
    expect(request?.headers['content-type']).toBe('application/cloudevents+json');
    expect(request?.headers['webhook-id']).toBe(event.id);
    const timestamp = Number(request?.headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(request?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/u);
    expect(request?.body).toContain('"data":{"id":9007199254740993,');
    await relay.stop();
  });

  it('counts any other answer as a failure, and 410 Gone as dead at once', async () => {
    for (const [status, dead] of [
      [500, false],
      [302, false],
      [400, false],
      [410, true],
    ] as const) {
      const { url } = await receiver(() => status);
      const { store } = await storeWithEvent();
      const relay = relayOf(store.outbox, url);
      expect(await relay.runOnce()).toMatchObject({
        delivered: 0,
        failed: dead ? 0 : 1,
        dead: dead ? 1 : 0,
      });
      const [kept] = dead
        ? await store.outbox.dead(1)
        : await store.outbox.due(1, new Date(Date.now() + 3_600_000));
      expect(kept?.lastError).toBe(`DeliveryError: HTTP ${status}`);
      await relay.stop();
    }
  });

  it('aborts a request the endpoint does not answer within the relay\u2019s time-out', async () => {
    const { url, received } = await receiver(() => 'hang');
    const { store } = await storeWithEvent();
    const relay = relayOf(store.outbox, url, 2_000);
    expect(await relay.runOnce()).toMatchObject({ failed: 1 });
    expect(received).toHaveLength(1);
    expect((await store.outbox.due(1, new Date(Date.now() + 3_600_000)))[0]?.lastError).toBe(
      'DeliveryError: time-out: no confirmation within 2000 ms',
    );
    await relay.stop();
  });

  it('counts an endpoint it cannot reach as a failure', async () => {
    const { url } = await receiver();
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const { store } = await storeWithEvent();
    const relay = relayOf(store.outbox, url);
    expect(await relay.runOnce()).toMatchObject({ failed: 1 });
    expect((await store.outbox.due(1, new Date(Date.now() + 3_600_000)))[0]?.lastError).toBe(
      'DeliveryError: the webhook endpoint could not be reached',
    );
    await relay.stop();
  });

  it('refuses a plain-http or credentialed URL and a bad secret at once, never echoing the secret', () => {
    expect(() => webhookSink({ url: 'http://hooks.example.com/', secret: SECRET })).toThrow(
      'webhookSink: option "url" must be an absolute https: URL (http: only on a loopback host) ' +
        'without credentials; received a http: URL for hooks.example.com',
    );
    expect(() => webhookSink({ url: 'https://u:p@hooks.example.com/', secret: SECRET })).toThrow(
      'option "url"',
    );
    for (const secret of [
      'whsec_short',
      'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'whsec_***not-base64***',
    ]) {
      expect(() => webhookSink({ url: 'https://hooks.example.com/', secret })).toThrow(
        `webhookSink: option "secret" must be 'whsec_' followed by the base64 of 24 to 64 random ` +
          `bytes (Standard Webhooks); received a string of ${secret.length} characters`,
      );
    }
  });
});
