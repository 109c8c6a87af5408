import { expect } from 'vitest';
import { AT_MOST_WRITTEN, sendHugeBody } from '../../client/huge-body';
import type { RegisterCase } from '../coverage';
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
 * @param test - registers each case, as the run's coverage says
 */
export function describeMetadata(dpop: DpopHost, test: RegisterCase): void {
  for (const [index, path] of METADATA_PATHS.entries()) {
    const id = `metadata.${index === 0 ? 'resource-path' : 'root'}`;
    test(
      id,
      ['metadata', 'mounting'],
      `serves the metadata at ${path} for GET and HEAD`,
      async () => {
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
        expect(view(await dpop.atRoot('HEAD', path))).toStrictEqual(
          answer(200, headers, '', false),
        );
      },
    );

    test(`${id}.post`, ['metadata'], `answers POST ${path} 405 with Allow: GET, HEAD`, async () => {
      expect(view(await dpop.atRoot('POST', path, '{}'))).toStrictEqual(
        answer(
          405,
          { allow: 'GET, HEAD' },
          { error: 405, message: 'Only GET, HEAD are allowed here.' },
        ),
      );
    });
  }

  // The metadata reads no body: one declared must not keep the connection for Node to read it.
  for (const method of ['GET', 'POST']) {
    test(
      `metadata.declared-body.${method.toLowerCase()}`,
      ['metadata', 'raw-socket', 'closes'],
      `answers ${method} of the metadata with a declared 64 MiB body Connection: close, and reads no more of it`,
      async () => {
        const url = new URL(`${dpop.origin()}${METADATA_PATHS[0]}`);
        const outcome = await sendHugeBody(url, { 'content-type': 'application/json' }, method);
        expect(outcome.head).toMatch(method === 'GET' ? /^HTTP\/1\.1 200 / : /^HTTP\/1\.1 405 /);
        expect(outcome.head.toLowerCase()).toContain('\r\nconnection: close\r\n');
        expect(outcome.closedBy).toBe('server');
        expect(outcome.written).toBeLessThan(AT_MOST_WRITTEN);
      },
    );
  }
}
