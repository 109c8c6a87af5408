import type { Principal } from '@plantstore/core';

/**
 * What the route leaves on `res.locals.plantstore` for the host's later middleware, such as a
 * `res.on('finish')` logger. Present exactly when the plants route answered the request.
 *
 * @example
 * ```ts
 * app.use((req, res, next) => {
 *   res.on('finish', () => {
 *     const subject = res.locals.plantstore?.principal?.subject;
 *     if (subject !== undefined) audit.log(`${subject} ${req.method} ${req.originalUrl} ${res.statusCode}`);
 *   });
 *   next();
 * });
 * ```
 */
export interface PlantLocals {
  /** Who made the request, once the token was verified; `undefined` when it was refused before that. */
  readonly principal: Principal | undefined;
}

// `Express.Locals` is the merging point that both @types/express 4 and 5 intersect into `res.locals`,
// so this needs no import of a particular major's types.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- the only way to merge into Express.Locals
  namespace Express {
    interface Locals {
      /** Set by `@plantstore/express` when the plants route answered the request. */
      plantstore?: PlantLocals;
    }
  }
}
