// What the docs' code blocks take as given: the reader's own settings and objects, declared once here
// so each block shows only what it is about. A block that declares one of these names itself wins.

declare const jwksUri: string;
declare const issuer: string;
declare const audience: string;
declare const secret: string;
declare const store: import('@plantstore/core').PlantStore;
declare const plants: import('@plantstore/core').PlantService;
declare const server: import('node:http').Server;
declare const pool: import('pg').Pool;
/** The reader's amqplib connection and NATS connection, for the event sinks. */
declare const amqpConnection: import('amqplib').ChannelModel;
declare const natsConnection: import('@nats-io/nats-core').NatsConnection;
declare const logger: {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
};
declare const metrics: { increment(name: string, tags: Record<string, unknown>): void };
/** A key-value database with an atomic insert-if-absent, as in docs/stores/custom-store.md. */
declare const db: {
  insertIfAbsent(key: string, value: unknown, options: { signal: AbortSignal }): Promise<boolean>;
  get(key: string): Promise<import('@plantstore/core').NewPlant>;
};
declare function introspect(
  token: string,
): Promise<{ active: boolean; sub: string; scope: string } & Record<string, unknown>>;

// The public functions, so a block that continues an earlier one on the same page need not repeat its
// imports. They are typed from the packages themselves: a wrong call still fails.
declare const {
  createPlantService,
  jwtBearer,
  memoryStore,
  ServiceUnavailableError,
  memoryReplayStore,
  dpopBinding,
  certificateBinding,
}: typeof import('@plantstore/core');
declare const {
  createTokenIssuer,
  createDpopClient,
  createProviderIssuer,
}: typeof import('@plantstore/core/testing');
/** The reader's app, built with the `fetch` its preset's jwtBearer takes (docs/guides/authentication.md). */
declare function createApp(fetch?: typeof globalThis.fetch): {
  listen(port: number): import('node:http').Server;
};
/** What the reader passes to the auth0 preset. */
declare const auth0Options: import('@plantstore/core/providers').Auth0PresetOptions;
declare const { plantRouter }: typeof import('@plantstore/express');
declare const { plantRoutes }: typeof import('@plantstore/koa');
declare const { plantPlugin }: typeof import('@plantstore/fastify');
declare const { postgresStore, postgresReplayStore }: typeof import('@plantstore/postgres');
declare const auth: import('@plantstore/core').Authenticator;
type NewPlant = import('@plantstore/core').NewPlant;
type StoreContext = import('@plantstore/core').StoreContext;
type InsertResult = import('@plantstore/core').InsertResult;
