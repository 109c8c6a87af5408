// A host process of the reliability scenarios: an Express or Koa app with the plant route on a pg
// Pool, jwtBearer against a token issuer's JWKS, and a GET /health route of its own. Started by
// startHost() with its configuration in PLANT_HOST_CONFIG; it answers the parent over IPC with its
// memory (after GC when asked), its open sockets, the bytes it read and what its hooks saw.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setImmediate as turn } from 'node:timers/promises';
import {
  createPlantService,
  jwtBearer,
  type PlantService,
  type PlantServiceError,
} from '@plantstore/core';
import { postgresStore } from '@plantstore/postgres';
import pg from 'pg';
import { adapterApp } from './adapters';
import type { HostCommand, HostConfig, HostMessage, HostStats, RecordedError } from './host-config';

const MAX_RECORDED = 20_000;

function send(message: HostMessage): void {
  process.send?.(message);
}

// Koa reports a client that went away mid-request through app.on('error'), route or not:
// the socket ended inside the body (HPE_INVALID_EOF_STATE) or was reset.
const CLIENT_GONE = new Set(['HPE_INVALID_EOF_STATE', 'ECONNRESET', 'ECONNABORTED', 'EPIPE']);

function isClientGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_GONE.has(code);
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`;
}

function causeOf(error: PlantServiceError): string {
  const cause = error.cause;
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}

async function main(config: HostConfig): Promise<void> {
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    max: config.pool?.max ?? 10,
    connectionTimeoutMillis: config.pool?.connectionTimeoutMillis ?? 1_000,
    application_name: config.pool?.applicationName ?? 'plantstore-reliability',
    ...(config.pool?.statementTimeout === undefined
      ? {}
      : { statement_timeout: config.pool.statementTimeout }),
  });
  let poolErrors = 0;
  pool.on('error', () => {
    poolErrors += 1;
  });
  if (config.pool?.guardConnections === true) {
    // Work-around: @plantstore/postgres attaches its listener a few microtasks after pg-pool hands a
    // connection out; a FATAL parsed in between (a backend killed as it connects) has no listener.
    pool.on('connect', (client) => {
      client.on('error', () => {
        poolErrors += 1;
      });
    });
  }

  let created = 0;
  let hostErrors = 0;
  let clientGone = 0;
  const hostErrorSamples: string[] = [];
  const recorded: RecordedError[] = [];
  let errors = 0;
  const rejected: Record<string, number> = {};
  const service = createPlantService({
    store: postgresStore({ client: pool, table: config.table }),
    auth: jwtBearer({
      jwksUri: config.auth.jwksUri,
      issuer: config.auth.issuer,
      audience: config.auth.audience,
      ...(config.auth.jwks === undefined ? {} : { jwks: config.auth.jwks }),
    }),
    ...config.service,
    onCreated: () => {
      created += 1;
    },
    onRejected: (error) => {
      rejected[error.code] = (rejected[error.code] ?? 0) + 1;
    },
    onError: (error, context) => {
      errors += 1;
      if (recorded.length >= MAX_RECORDED) recorded.shift();
      const jti = context.principal?.claims['jti'];
      recorded.push({
        code: error.code,
        status: error.status,
        jti: typeof jti === 'string' ? jti : undefined,
        cause: causeOf(error),
      });
    },
  });
  const listener = adapterApp(config.adapter, service, {
    onHostError: (error) => {
      if (isClientGone(error)) {
        clientGone += 1;
        return;
      }
      hostErrors += 1;
      if (hostErrorSamples.length < 5) hostErrorSamples.push(describeError(error));
    },
  });

  const server: Server = createServer(
    config.server?.connectionsCheckingInterval === undefined
      ? {}
      : { connectionsCheckingInterval: config.server.connectionsCheckingInterval },
    listener,
  );
  if (config.server?.headersTimeout !== undefined) {
    server.headersTimeout = config.server.headersTimeout;
  }
  if (config.server?.requestTimeout !== undefined) {
    server.requestTimeout = config.server.requestTimeout;
  }
  if (config.server?.keepAliveTimeout !== undefined) {
    server.keepAliveTimeout = config.server.keepAliveTimeout;
  }
  const sockets = new Set<Socket>();
  let closedBytes = 0;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      closedBytes += socket.bytesRead;
    });
  });

  // Either way the route's warm-up runs before the host listens, as a production host would run it.
  if (config.auth.skipReady === true) await Promise.all([pool.query('SELECT 1'), service.warmUp()]);
  else await readyAsAProbeWould(service);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const stats = (): HostStats => {
    const memory = process.memoryUsage();
    let bytesRead = closedBytes;
    for (const socket of sockets) bytesRead += socket.bytesRead;
    return {
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      external: memory.external,
      connections: sockets.size,
      bytesRead,
      created,
      errors,
      rejected: { ...rejected },
      hostErrors,
      hostErrorSamples: [...hostErrorSamples],
      clientGone,
      poolErrors,
      poolTotal: pool.totalCount,
      poolIdle: pool.idleCount,
      poolWaiting: pool.waitingCount,
    };
  };

  const answer = async (message: HostCommand): Promise<unknown> => {
    switch (message.command) {
      case 'stats':
        return stats();
      case 'gc':
        // Several passes, a turn of the event loop apart, so that weak and finalised objects go too.
        for (let pass = 0; pass < 4; pass += 1) {
          globalThis.gc?.();
          await turn();
        }
        return stats();
      case 'errors':
        return recorded.splice(0);
      case 'close':
        server.close();
        server.closeAllConnections();
        await service.close();
        await pool.end();
        setImmediate(() => process.exit(0));
        return true;
    }
  };
  process.on('message', (message: HostCommand) => {
    void answer(message).then((value) => send({ type: 'reply', id: message.id, value }));
  });
  // The parent went away: do not linger.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'listening', port: (server.address() as AddressInfo).port });
}

const raw = process.env['PLANT_HOST_CONFIG'];
if (raw === undefined) throw new Error('plant-host needs PLANT_HOST_CONFIG');
main(JSON.parse(raw) as HostConfig).catch((error: unknown) => {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});

/**
 * Calls `service.ready()` until it resolves, as a readiness probe would: a scenario's key set may
 * have a `timeoutMs` of a few hundred milliseconds, which the first fetch can outlast on a busy
 * machine, and a host that gives up at the first try would fail a scenario about something else.
 */
async function readyAsAProbeWould(service: PlantService): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await service.ready();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
