import type { Principal } from '@plantstore/core';

/**
 * What the route leaves on `request.plantstore` for the host's hooks that run after it, such as an
 * `onResponse` logger. Present exactly when the plants route answered the request.
 *
 * @example
 * ```ts
 * app.addHook('onResponse', async (request, reply) => {
 *   const subject = request.plantstore?.principal?.subject;
 *   if (subject !== undefined) audit.log(`${subject} ${request.method} ${request.url} ${reply.statusCode}`);
 * });
 * ```
 */
export interface PlantRequestState {
  /** Who made the request, once the token was verified; `undefined` when it was refused before that. */
  readonly principal: Principal | undefined;
}

// `FastifyRequest` is the merging point of both Fastify 4's and Fastify 5's typings.
declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `@plantstore/fastify` when the plants route answered the request. */
    plantstore?: PlantRequestState | undefined;
  }
}
