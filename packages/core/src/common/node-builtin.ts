import type * as NodeCrypto from 'node:crypto';
import type * as NodeDiagnosticsChannel from 'node:diagnostics_channel';
import type * as NodeProcess from 'node:process';
import type * as NodeStream from 'node:stream';

/** The Node built-ins the core uses, by the id `process.getBuiltinModule` takes. */
interface NodeBuiltins {
  'node:crypto': typeof NodeCrypto;
  'node:diagnostics_channel': typeof NodeDiagnosticsChannel;
  'node:process': typeof NodeProcess;
  'node:stream': typeof NodeStream;
}

interface ProcessWithBuiltins {
  readonly getBuiltinModule?: (id: string) => unknown;
}

/**
 * A Node built-in module when the runtime has one: Node.js (20.16 and later), Bun, Deno, and workerd
 * with `nodejs_compat`. `process.getBuiltinModule` loads it synchronously and names no module a
 * bundler must resolve, so the fetch entry loads on runtimes without Node built-ins (workerd without
 * `nodejs_compat`, Vercel's and Next.js's Edge runtimes) and only the features that need one ask for it.
 *
 * @param id - the built-in's id, with its `node:` prefix
 * @returns the module, or `undefined` on a runtime without it
 * @example
 * ```ts
 * const crypto = nodeBuiltin('node:crypto'); // undefined on workerd without nodejs_compat
 * ```
 */
export function nodeBuiltin<Id extends keyof NodeBuiltins>(id: Id): NodeBuiltins[Id] | undefined {
  const process = (globalThis as { readonly process?: ProcessWithBuiltins }).process;
  try {
    return process?.getBuiltinModule?.(id) as NodeBuiltins[Id] | undefined;
  } catch {
    // Next.js's Edge sandbox stands in a getBuiltinModule that throws: no built-in there either.
    return undefined;
  }
}

/**
 * `node:crypto`, for a feature that cannot work without it (X.509 parsing, PEM and JWK keys), or a
 * start-up TypeError that says so and what to use instead.
 *
 * @param feature - what needs it, as the error names it (`jwtBearer: option "publicKey" as PEM`)
 * @param instead - what works on every runtime, for the message
 * @returns the module
 * @throws TypeError on a runtime without `node:crypto`
 * @example
 * ```ts
 * const { createPublicKey } = requireNodeCrypto('jwtBearer: option "publicKey" as PEM', 'a CryptoKey');
 * ```
 */
export function requireNodeCrypto(feature: string, instead: string): typeof NodeCrypto {
  const crypto = nodeBuiltin('node:crypto');
  if (crypto !== undefined) return crypto;
  throw new TypeError(
    `${feature} needs node:crypto, which this runtime does not have (on Cloudflare Workers, turn on the nodejs_compat flag); use ${instead} instead`,
  );
}
