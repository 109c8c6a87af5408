// The Worker the stores' conformance suites run against: it binds the D1 database and the replay
// Durable Object; the suites reach both from the test process through miniflare's bindings.
export { ReplayDurableObject } from '@plantstore/cloudflare';

export default {
  fetch(): Response {
    return new Response('Not found.', { status: 404 });
  },
};
