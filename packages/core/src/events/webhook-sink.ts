import { base64, base64Bytes } from '../common/base64';
import { checkKnownOptions, describeValue, optionError } from '../options/check-options';
import { isSecureScheme, parsedUrl } from '../http/public-url';
import { DeliveryError, type EventSink } from './event-sink';
import type { PendingEvent } from './outbox';

/** Options of {@link webhookSink}. */
export interface WebhookSinkOptions {
  /** Where events are POSTed: an `https:` URL (`http:` only on a loopback host), no credentials in it. */
  readonly url: string | URL;
  /** The endpoint's signing secret, `whsec_` and base64 of 24 to 64 random bytes (Standard Webhooks). */
  readonly secret: string;
  /** The `fetch` to send with. Default: the global `fetch`. */
  readonly fetch?: typeof fetch | undefined;
}

const FACTORY = 'webhookSink';
const KNOWN = new Set(['url', 'secret', 'fetch']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/u;
const encoder = new TextEncoder();

/**
 * A sink that POSTs each event to a webhook endpoint, signed as the Standard Webhooks
 * specification says: `webhook-id` (the event's id, the receiver's key to dedupe), `webhook-timestamp`
 * (seconds, at each attempt) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body` with the secret), the body the CloudEvent JSON as
 * `application/cloudevents+json`. A 2xx confirms the event; `410 Gone` makes it dead at once (the
 * endpoint is gone: retrying cannot help, and `redrive()` sends it again); any other answer, a
 * network failure or the relay's time-out is a failure retried with back-off. WebCrypto only: it
 * runs on every runtime.
 *
 * @param options - the endpoint, its secret, the `fetch` to use
 * @returns the sink, for {@link eventRelay}
 * @throws TypeError for a bad URL or secret (never echoing the secret)
 * @example
 * ```ts
 * const sink = webhookSink({ url: 'https://hooks.example.com/plants', secret: process.env.WEBHOOK_SECRET! });
 * ```
 */
export function webhookSink(options: WebhookSinkOptions): EventSink {
  checkKnownOptions(FACTORY, options, KNOWN);
  const url = endpointUrl(options.url);
  const key = secretKey(options.secret);
  const send = options.fetch ?? globalThis.fetch;
  if (typeof send !== 'function') {
    optionError(FACTORY, 'fetch', 'must be a fetch function', describeValue(send));
  }
  let signing: ReturnType<typeof crypto.subtle.importKey> | undefined;
  const sign = async (text: string): Promise<string> => {
    signing ??= crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const mac = await crypto.subtle.sign('HMAC', await signing, encoder.encode(text));
    return `v1,${base64(new Uint8Array(mac))}`;
  };
  return {
    async send(event: PendingEvent, signal: AbortSignal) {
      const timestamp = Math.floor(Date.now() / 1000).toString();
      const signature = await sign(`${event.id}.${timestamp}.${event.body}`);
      let answer: Response;
      try {
        answer = await send(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/cloudevents+json',
            'webhook-id': event.id,
            'webhook-timestamp': timestamp,
            'webhook-signature': signature,
          },
          body: event.body,
          signal,
          // A redirect is the endpoint's answer, not a delivery: it would resend the body elsewhere.
          redirect: 'manual',
        });
      } catch (error) {
        throw new DeliveryError('the webhook endpoint could not be reached', { cause: error });
      }
      // The answer's body is not read: cancelled, so that the connection is free again.
      await answer.body?.cancel().catch(() => undefined);
      if (answer.status >= 200 && answer.status < 300) return;
      throw new DeliveryError(`HTTP ${answer.status}`, { permanent: answer.status === 410 });
    },
  };
}

function endpointUrl(value: unknown): string {
  const url = parsedUrl(value);
  if (url === undefined || !isSecureScheme(url) || url.username !== '' || url.password !== '') {
    optionError(
      FACTORY,
      'url',
      'must be an absolute https: URL (http: only on a loopback host) without credentials',
      url === undefined ? describeValue(value) : `a ${url.protocol} URL for ${url.hostname}`,
    );
  }
  return url.href;
}

function secretKey(value: unknown): Uint8Array<ArrayBuffer> {
  const text = typeof value === 'string' && value.startsWith('whsec_') ? value.slice(6) : '';
  let key = new Uint8Array(0);
  try {
    // A copy on its own ArrayBuffer, as WebCrypto's importKey takes it.
    if (BASE64.test(text)) key = new Uint8Array(base64Bytes(text));
  } catch {
    // Not base64 after all (bad padding): refused below.
  }
  if (key.length < 24 || key.length > 64) {
    optionError(
      FACTORY,
      'secret',
      "must be 'whsec_' followed by the base64 of 24 to 64 random bytes (Standard Webhooks)",
      typeof value === 'string' ? `a string of ${value.length} characters` : describeValue(value),
    );
  }
  return key;
}
