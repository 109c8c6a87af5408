import type { ResourceMetadataEndpoint } from './resource-metadata';
import type { PlantAnswer, PlantRequest } from '../http/request';

/** The route, ready to mount: adapters call `matches` and `handle`; Web-standard hosts call `fetch`. */
export interface PlantService {
  /** Whether a request is the route's (`POST {basePath}/plants`); adapters pass on everything else. */
  matches(method: string, path: string): boolean;
  /**
   * Answers one request. Never rejects for anything a client can send: every failure becomes an
   * answer in the Error shape. A request that is not the route's is answered 404 or 405.
   */
  handle(request: PlantRequest): Promise<PlantAnswer>;
  /**
   * The Web-standard entry, for `node:http` (through `createNodeHandler`), Hono, Bun, Deno. It also
   * answers the RFC 9728 metadata paths when `resourceMetadata` is on.
   */
  fetch(request: Request): Promise<Response>;
  /** The RFC 9728 metadata endpoint, when `resourceMetadata` is on: adapters mount it at the host's root. */
  readonly resourceMetadata: ResourceMetadataEndpoint | undefined;
  /**
   * For readiness probes: fetches the key set, connects the store and runs {@link warmUp}. Rejects
   * if the key set or the store is down; the warm-up itself never rejects.
   */
  ready(): Promise<void>;
  /**
   * Runs the route twice on a sample request of its own, so that the first client's request finds
   * it compiled (see docs/reference/architecture.md, "Start-up warm-up"): a throwaway service on a secret
   * drawn for this one call, a store that keeps nothing. It touches nothing of this service's (auth,
   * key sets, store, hooks, diagnostics channel) and never rejects. The first call runs it, later
   * calls answer the same promise. Nothing runs it unless it is called: the Fastify plugin calls
   * it while it registers, `ready()` calls it, and a host can await it before it listens.
   *
   * @example
   * ```ts
   * const service = createPlantService({ store, auth });
   * await service.warmUp();
   * createServer(createNodeHandler(service)).listen(3000);
   * ```
   */
  warmUp(): Promise<void>;
  /** Releases what the auth and the store hold. */
  close(): Promise<void>;
}
