import {
  createTokenIssuer,
  type TokenIssuer,
  type TokenIssuerOptions,
} from '@plantstore/core/testing';
import pg from 'pg';
import { createPlantTable, dropPlantTable, freshTableName } from '../check/plant-table';
import type { Adapter } from '../host/adapters';
import type { HostConfig } from '../host/host-config';
import { type HostProcess, startHost } from '../host/host-process';

/** What {@link FaultEnvironment.startHost} takes besides the adapter: any host setting. */
export type HostOverrides = Partial<Omit<HostConfig, 'adapter' | 'auth'>> & {
  readonly auth?: Partial<HostConfig['auth']>;
};

/** A token issuer, a Pool of the scenario's own, fresh tables and host processes, all closed together. */
export interface FaultEnvironment {
  readonly databaseUrl: string;
  /** The scenario's own Pool (application name `plantstore-scenario`), never killed by a scenario. */
  readonly pool: pg.Pool;
  readonly issuer: TokenIssuer;
  /** A valid token, the same for every call (the verified-token cache is warm for it). */
  readonly token: string;
  /** Creates a fresh table, dropped on close. */
  newTable(purpose: string): Promise<string>;
  /** Starts a host on a table (a fresh one unless given), closed on close. */
  startHost(adapter: Adapter, overrides?: HostOverrides): Promise<HostProcess>;
  close(): Promise<void>;
}

/**
 * Sets up what every fault scenario needs.
 *
 * @param databaseUrl - the PostgreSQL server
 * @param issuerOptions - options of the token issuer (its algorithm)
 * @returns the environment; `close()` it in `afterAll`
 */
export async function faultEnvironment(
  databaseUrl: string,
  issuerOptions: TokenIssuerOptions = {},
): Promise<FaultEnvironment> {
  const issuer = await createTokenIssuer(issuerOptions);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 4,
    application_name: 'plantstore-scenario',
  });
  const tables: string[] = [];
  const hosts: HostProcess[] = [];
  const token = await issuer.sign({ scope: 'plants:write' });
  const newTable = async (purpose: string): Promise<string> => {
    const table = freshTableName(purpose);
    await createPlantTable(pool, table);
    tables.push(table);
    return table;
  };
  return {
    databaseUrl,
    pool,
    issuer,
    token,
    newTable,
    async startHost(adapter, overrides = {}) {
      const table = overrides.table ?? (await newTable(adapter));
      const host = await startHost({
        databaseUrl,
        ...overrides,
        adapter,
        table,
        auth: {
          jwksUri: issuer.jwksUri,
          issuer: issuer.issuer,
          audience: issuer.audience,
          ...overrides.auth,
        },
      });
      hosts.push(host);
      return host;
    },
    async close() {
      await Promise.allSettled(hosts.map((host) => host.close()));
      await Promise.allSettled(tables.map((table) => dropPlantTable(pool, table)));
      await pool.end();
      await issuer.close();
    },
  };
}
