import { expect, it } from 'vitest';
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
}
