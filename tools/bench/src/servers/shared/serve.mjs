// The plumbing every server shares: listen on 127.0.0.1 port 0, tell the runner the port on stdout
// as one JSON line, and on SIGTERM clean up and exit (which also writes a --cpu-prof profile).
import process from 'node:process';
import { HOST } from '../../config.mjs';

/**
 * Announces the port and installs the SIGTERM handler.
 *
 * @param {number} port
 * @param {() => unknown} [cleanUp] - run before exiting (drop a table, end a pool)
 */
export function announce(port, cleanUp) {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.once('SIGTERM', () => {
    Promise.resolve()
      .then(cleanUp)
      .catch((error) => process.stderr.write(`clean-up failed: ${String(error)}\n`))
      .finally(() => process.exit(0));
  });
}

/**
 * Starts a `node:http` server (Express and Koa apps included) and announces it.
 *
 * @param {import('node:http').Server} server
 * @param {() => unknown} [cleanUp]
 */
export function serve(server, cleanUp) {
  server.listen(0, HOST, () => announce(server.address().port, cleanUp));
}

/**
 * Runs the service's warm-up when the runner asks for it (`BENCH_WARM_UP=on`, the first-request
 * variants): the server then listens on a compiled route, as a host that awaits `warmUp()` would.
 *
 * @param {import('@plantstore/core').PlantService} service
 * @returns {Promise<void>}
 */
export async function warmUpIfAsked(service) {
  if (process.env.BENCH_WARM_UP === 'on') await service.warmUp();
}
