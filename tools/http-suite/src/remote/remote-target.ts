import type { ContractHost, ContractTarget } from '../hosts/target';
import type { RuntimeProcess } from '../runtime/runtime-process';
import { startBridge } from './bridge';

/** How a remote target starts its host program, given the bridge's environment. */
export type LaunchHost = (env: Readonly<Record<string, string>>) => Promise<RuntimeProcess>;

/**
 * A contract target whose route runs in another runtime: each `start` opens a bridge for the suite's
 * store and hooks, launches the host program (which builds the route with `bridgedService`), and
 * answers with the address it printed. A program that dies shows its output in the failure.
 *
 * @param launch - starts the host program with the bridge's environment
 * @param shape - whether the host passes other requests on, and where it mounts the route
 * @returns the target for `describeHttpContract`
 * @example
 * ```ts
 * describeHttpContract('Bun.serve', remoteTarget((env) => startRuntime({ binary, args, cwd, env }),
 *   { passesOn: false, mountPath: '/api' }));
 * ```
 */
export function remoteTarget(
  launch: LaunchHost,
  shape: { readonly passesOn: boolean; readonly mountPath: string },
): ContractTarget {
  return {
    passesOn: shape.passesOn,
    async start(options, setup): Promise<ContractHost> {
      // The route runs in another process, which builds its own jwtBearer from these settings.
      if (setup === undefined) throw new TypeError('remoteTarget needs the contract setup');
      const bridge = await startBridge(options, setup);
      let host: RuntimeProcess;
      try {
        host = await launch(bridge.env);
      } catch (error) {
        await bridge.close();
        throw error;
      }
      return {
        url: `${host.origin}${shape.mountPath}`,
        close: async () => {
          await host.stop();
          await bridge.close();
        },
      };
    },
  };
}
