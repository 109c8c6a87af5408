import { expect, it } from 'vitest';
import { AT_MOST_WRITTEN, sendHugeBody } from '../../client/huge-body';
import type { DpopHost } from './dpop-host';
import {
  ALGS,
  answer,
  JSON_TYPE,
  METADATA_PATHS,
  RESOURCE,
  RESOURCE_NAME,
  SCOPE,
  view,
} from './dpop-views';

/** The test name of the metadata case only a raw socket can send, for hosts that skip it. */
export const METADATA_BODY_CASE =
  'answers %s of the metadata with a declared 64 MiB body Connection: close, and reads no more of it';

/**
 * The RFC 9728 cases: the metadata document at the host's root, for GET and HEAD, and 405 for the
 * rest.
 *
 * @param dpop - the DPoP host, which serves the metadata
 */
export function describeMetadata(dpop: DpopHost): void {
  it.each(METADATA_PATHS)('serves the metadata at %s for GET and HEAD', async (path) => {
    const document = JSON.stringify({
      resource: RESOURCE,
      authorization_servers: [dpop.issuer.issuer],
      scopes_supported: [SCOPE],
      bearer_methods_supported: ['header'],
      dpop_signing_alg_values_supported: ALGS.split(' '),
      dpop_bound_access_tokens_required: false,
      resource_name: RESOURCE_NAME,
    });
    const headers = { 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=3600' };
    expect(view(await dpop.atRoot('GET', path))).toStrictEqual(
      answer(200, headers, document, false),
    );
    expect(view(await dpop.atRoot('HEAD', path))).toStrictEqual(answer(200, headers, '', false));
  });

  it.each(METADATA_PATHS)('answers POST %s 405 with Allow: GET, HEAD', async (path) => {
    expect(view(await dpop.atRoot('POST', path, '{}'))).toStrictEqual(
      answer(
        405,
        { allow: 'GET, HEAD' },
        { error: 405, message: 'Only GET, HEAD are allowed here.' },
      ),
    );
  });

  // The metadata reads no body: one declared must not keep the connection for Node to read it.
  it.each(['GET', 'POST'])(METADATA_BODY_CASE, async (method) => {
    const url = new URL(`${dpop.origin()}${METADATA_PATHS[0]}`);
    const outcome = await sendHugeBody(url, { 'content-type': 'application/json' }, method);
    expect(outcome.head).toMatch(method === 'GET' ? /^HTTP\/1\.1 200 / : /^HTTP\/1\.1 405 /);
    expect(outcome.head.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(outcome.closedBy).toBe('server');
    expect(outcome.written).toBeLessThan(AT_MOST_WRITTEN);
  });
}
