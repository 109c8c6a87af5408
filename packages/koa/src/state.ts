import type { Principal } from '@plantstore/core';

/** What the route leaves on `ctx.state.plantstore` when it answered a request. */
export interface PlantState {
  /** Who made the request, once the token was verified; `undefined` when it was refused before that. */
  readonly principal: Principal | undefined;
}

declare module 'koa' {
  // Merged into Koa's own `DefaultState` (the same name in the Koa 2 and Koa 3 typings).
  interface DefaultState {
    /** Set by `@plantstore/koa` when the plants route answered the request. */
    plantstore?: PlantState;
  }
}
