import { describe, expect, it } from 'vitest';
import { type HostHooks, type HostRecord, hostRecord } from '../hosts/host-hooks';
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
import type { CaseTag, HostCoverage } from './coverage';
import { describeHttpContract } from './describe';

/** Options of {@link describeMountedContract}. */
export interface MountedContractOptions<Mounting> {
  /** The first mounting's coverage. Default every case. */
  readonly coverage?: HostCoverage;
  /** A mounting's own coverage (a host body parser before the route), instead of the default. */
  readonly coverageOf?: (mounting: Mounting) => HostCoverage | undefined;
  /** Checks of what the host saw, as a test after the mounting's run; `full` when it ran every case. */
  readonly afterRun?: (record: HostRecord, mounting: Mounting, full: boolean) => void;
}

/**
 * Runs the contract against one framework major, once per way of mounting the route, each time in a
 * real app whose own error handling reports to `hooks`; then checks that no answer of the suite
 * ever reached the host's error handler. The first mounting runs every case; the others only the
 * cases a mounting can change (tag `mounting`), since the rest go through the same code.
 *
 * @param major - e.g. `'Express 5, mounted'`: each run is named `${major} ${mounting.name}`
 * @param mountings - the ways the docs mount the route, the one to run in full first
 * @param targetOf - the target for one mounting, its host reporting to `hooks`
 * @param options - coverage of the first mounting, of a mounting of its own, and checks after a run
 * @example
 * describeMountedContract('Fastify 5, registered', FASTIFY_MOUNTINGS, (mounting, hooks) =>
 *   fastifyTarget(FASTIFY_MAJORS['Fastify 5'], plantPlugin, { mounting, hooks, protectedResourceMetadata }));
 */
export function describeMountedContract<Mounting extends { readonly name: string }>(
  major: string,
  mountings: readonly Mounting[],
  targetOf: (mounting: Mounting, hooks: HostHooks) => ContractTarget,
  options: MountedContractOptions<Mounting> = {},
): void {
  for (const [index, mounting] of mountings.entries()) {
    const name = `${major} ${mounting.name}`;
    describe(name, () => {
      const record = hostRecord();
      const coverage =
        options.coverageOf?.(mounting) ??
        (index === 0 ? (options.coverage ?? {}) : { only: MOUNTING_ONLY });
      describeHttpContract(name, targetOf(mounting, record.hooks), coverage);

      it('never reached the host error handler for any answer of the suite', () => {
        expect(record.errors).toEqual([]);
        options.afterRun?.(record, mounting, coverage.only === undefined);
      });
    });
  }
}

/** What a second mounting of the same framework major can change. */
export const MOUNTING_ONLY: readonly CaseTag[] = ['mounting'];

/** What a host body parser before the route can change: how the body is read and judged. */
export const PARSER_CAN_CHANGE: readonly CaseTag[] = ['body', 'body-read', 'created', 'raw-socket'];

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
