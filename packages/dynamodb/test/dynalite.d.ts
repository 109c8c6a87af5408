// dynalite ships no types; the tests use its factory and the node:http server it returns.
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    readonly createTableMs?: number;
    readonly deleteTableMs?: number;
    readonly updateTableMs?: number;
    readonly path?: string;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}
