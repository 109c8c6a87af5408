import { randomBytes } from 'node:crypto';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as kit from '@plantstore/http-suite/client';

// SDK releases of 2026 warn once per process that releases after January 2027 need Node 22; the
// tests run on Node 20 too, and a green run prints nothing of its own.
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] = 'true';

/** A dynalite server on a free port of 127.0.0.1, its data in memory. */
export interface Dynalite {
  readonly endpoint: string;
  close(): Promise<void>;
}

/**
 * Starts dynalite in a child process of its own (tables become ACTIVE at once): in the test's
 * process, a thousand concurrent requests and the server that answers them shared one event loop,
 * and under other CPU work beside the run the SDK's time-outs fired.
 */
export async function startDynalite(): Promise<Dynalite> {
  const server = await kit.startServerProcess(
    new URL('fixtures/dynalite-process.ts', import.meta.url),
    new URL('../tsconfig.json', import.meta.url),
    {},
  );
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    close: async () => void (await kit.stopServerProcess(server)),
  };
}

/** A low-level client of `endpoint`, with credentials and a region that dynalite accepts. */
export function lowLevelClient(
  endpoint: string,
  config: DynamoDBClientConfig = {},
): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    // The suites send a thousand requests at once to one local server: a hundred sockets, the others queued without a warning.
    requestHandler: {
      httpAgent: { keepAlive: true, maxSockets: 100 },
      socketAcquisitionWarningTimeout: 120_000,
    },
    ...config,
  });
}

/** A document client on a low-level client of `endpoint`. */
export function documentClient(endpoint: string): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(lowLevelClient(endpoint));
}

/** A table name no other test file or run uses. */
export function uniqueTable(purpose: string): string {
  return `plantstore-${purpose}-${process.pid}-${randomBytes(4).toString('hex')}`;
}
