// A tiny RFC 7662 introspection endpoint for the introspection setup, in the server's process: with
// the cache on it is asked once per token, so its CPU is noise in the server's.
import { createServer } from 'node:http';
import { AUDIENCE, HOST, ISSUER, OPAQUE_TOKENS } from '../../config.mjs';

const claims = { sub: 'bench-client', client_id: 'bench-client', scope: 'plants:write' };
const ANSWERS = new Map([
  [OPAQUE_TOKENS.valid, { iss: ISSUER, aud: AUDIENCE }],
  [OPAQUE_TOKENS.otherIssuer, { iss: `${ISSUER}other`, aud: AUDIENCE }],
  [OPAQUE_TOKENS.otherAudience, { iss: ISSUER, aud: `${AUDIENCE}/other` }],
]);

/**
 * Starts the endpoint on a free port of 127.0.0.1.
 *
 * @returns {Promise<{ url: string, close: () => void }>}
 */
export async function startIntrospectionEndpoint() {
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const known = ANSWERS.get(new URLSearchParams(body).get('token') ?? '');
      const exp = Math.floor(Date.now() / 1000) + 7200;
      const answer =
        known === undefined ? { active: false } : { active: true, exp, ...claims, ...known };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(0, HOST, () => resolve(undefined)));
  return {
    url: `http://${HOST}:${server.address().port}/introspect`,
    close: () => server.close(),
  };
}
