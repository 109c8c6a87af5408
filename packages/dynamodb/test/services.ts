import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';

// SDK releases of 2026 warn once per process that releases after January 2027 need Node 22; the
// tests run on Node 20 too, and a green run prints nothing of its own.
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] = 'true';

/** A dynalite server on a free port of 127.0.0.1, its data in memory. */
export interface Dynalite {
  readonly endpoint: string;
  close(): Promise<void>;
}

/** Starts dynalite in this process; tables become ACTIVE at once. */
export async function startDynalite(): Promise<Dynalite> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
