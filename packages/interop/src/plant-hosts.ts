import { createServer } from 'node:http';
import { createNodeHandler, createPlantService, type PlantServiceOptions } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import { listen, send, type ContractHost, type Reply } from '@plantstore/http-suite';
import express from 'express';

/** The options of each service, by the prefix it is mounted at, such as `/default` or `/rfc9068`. */
export type Services = Readonly<Record<string, PlantServiceOptions>>;

/** A way to serve several services from one host application on 127.0.0.1, port 0. */
export interface Mount {
  readonly name: string;
  start(services: Services): Promise<ContractHost>;
}

/** Each service through `createNodeHandler` on one `node:http` server, tried in turn. */
export const nodeMount: Mount = {
  name: 'createNodeHandler on node:http',
  start(services) {
    const handlers = Object.entries(services).map(([prefix, options]) =>
      createNodeHandler(createPlantService({ ...options, basePath: prefix })),
    );
    return listen(
      createServer((req, res) => {
        const next = (index: number): void => {
          const handler = handlers[index];
          if (handler !== undefined) return handler(req, res, () => next(index + 1));
          res.writeHead(404);
          res.end();
        };
        next(0);
      }),
    );
  },
};

/** Each service through `plantRouter` in one Express 5 app, at its prefix. */
export const expressMount: Mount = {
  name: 'plantRouter in Express 5',
  start(services) {
    const app = express();
    for (const [prefix, options] of Object.entries(services)) app.use(prefix, plantRouter(options));
    return listen(createServer(app));
  },
};

export const mounts: readonly Mount[] = [nodeMount, expressMount];

/**
 * Sends `POST {url}{prefix}/plants` with a bearer token and a JSON body.
 *
 * @param host - the running host application
 * @param prefix - where the service is mounted
 * @param token - the bearer token
 * @param plant - the JSON body
 */
export function postPlant(
  host: ContractHost,
  prefix: string,
  token: string,
  plant: Readonly<Record<string, unknown>>,
): Promise<Reply> {
  return send(host.url, {
    path: `${prefix}/plants`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(plant),
  });
}
