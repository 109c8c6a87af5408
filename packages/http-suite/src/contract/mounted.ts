import { describe, expect, it } from 'vitest';
import { type HostHooks, hostRecord } from '../hosts/host-hooks';
import {
  EXPRESS_MAJORS,
  EXPRESS_MOUNTINGS,
  type ExpressMajor,
  type ExpressMetadataFactory,
  expressTarget,
  type PlantRouterFactory,
} from '../hosts/express-hosts';
import {
  FASTIFY_MAJORS,
  FASTIFY_MOUNTINGS,
  type FastifyMajor,
  type FastifyMetadataFactory,
  fastifyTarget,
  type PlantPluginFactory,
} from '../hosts/fastify-hosts';
import type { ContractTarget } from '../hosts/target';
import { describeHttpContract } from './describe';

/**
 * Runs the whole contract against one framework major, once per way of mounting the route, each
 * time in a real app whose own error handling reports to `hooks`; then checks that no answer of
 * the suite ever reached the host's error handler.
 *
 * @param major - e.g. `'Express 5, mounted'`: each run is named `${major} ${mounting.name}`
 * @param mountings - the ways the docs mount the route
 * @param targetOf - the target for one mounting, its host reporting to `hooks`
 * @example
 * describeMountedContract('Fastify 5, registered', FASTIFY_MOUNTINGS, (mounting, hooks) =>
 *   fastifyTarget(FASTIFY_MAJORS['Fastify 5'], plantPlugin, { mounting, hooks, protectedResourceMetadata }));
 */
export function describeMountedContract<Mounting extends { readonly name: string }>(
  major: string,
  mountings: readonly Mounting[],
  targetOf: (mounting: Mounting, hooks: HostHooks) => ContractTarget,
): void {
  for (const mounting of mountings) {
    const name = `${major} ${mounting.name}`;
    describe(name, () => {
      const record = hostRecord();
      describeHttpContract(name, targetOf(mounting, record.hooks));

      it('never reached the host error handler for any answer of the suite', () => {
        expect(record.errors).toEqual([]);
      });
    });
  }
}

/** What the Express contract takes of `@plantstore/express`. */
export interface ExpressAdapter {
  readonly plantRouter: PlantRouterFactory;
  readonly protectedResourceMetadata: ExpressMetadataFactory;
}

/** What the Fastify contract takes of `@plantstore/fastify`. */
export interface FastifyAdapter {
  readonly plantPlugin: PlantPluginFactory;
  readonly protectedResourceMetadata: FastifyMetadataFactory;
}

/** The contract on one Express major, mounted every way the docs describe. */
export const describeExpressContract = (major: ExpressMajor, adapter: ExpressAdapter): void =>
  describeMountedContract(`${major}, mounted`, EXPRESS_MOUNTINGS, (mounting, hooks) =>
    expressTarget(EXPRESS_MAJORS[major], adapter.plantRouter, { ...adapter, mounting, hooks }),
  );

/** The contract on one Fastify major, the plugin registered every way the docs describe. */
export const describeFastifyContract = (major: FastifyMajor, adapter: FastifyAdapter): void =>
  describeMountedContract(`${major}, registered`, FASTIFY_MOUNTINGS, (mounting, hooks) =>
    fastifyTarget(FASTIFY_MAJORS[major], adapter.plantPlugin, { ...adapter, mounting, hooks }),
  );
