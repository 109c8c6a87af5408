import type { RequestListener } from 'node:http';
import { createNodeHandler, createPlantService, type PlantServiceOptions } from '@plantstore/core';
import { writeAnswer } from '@plantstore/core/adapter';
import { plantRouter } from '@plantstore/express';
import {
  capturedLogger,
  listen,
  send,
  type ClientTls,
  type ContractHost,
  type ContractTls,
  type Reply,
} from '@plantstore/http-suite';
import express from 'express';
import { API } from './provider-config';

/** The options of each service, by the prefix it is mounted at, such as `/default` or `/rfc9068`. */
export type Services = Readonly<Record<string, PlantServiceOptions>>;

/**
 * A service's options as a mount uses them: the outages these tests provoke are logged by the
 * service, so unless a test brings its own logger, the lines are kept rather than printed.
 */
function quiet(options: PlantServiceOptions): PlantServiceOptions {
  return { logger: capturedLogger(), ...options };
}

/** A way to serve several services from one host application on 127.0.0.1, port 0. */
export interface Mount {
  readonly name: string;
  /** Starts the host: over HTTPS with `tls`, asking clients for a certificate (RFC 8705). */
  start(services: Services, tls?: ContractTls): Promise<ContractHost>;
}

/** Each service through `createNodeHandler` on one `node:http` server (`node:https` with `tls`), tried in turn. */
export const nodeMount: Mount = {
  name: 'createNodeHandler on node:http',
  start(services, tls) {
    const handlers = Object.entries(services).map(([prefix, options]) =>
      createNodeHandler(createPlantService({ ...quiet(options), basePath: prefix })),
    );
    const listener: RequestListener = (req, res) => {
      const next = (index: number): void => {
        const handler = handlers[index];
        if (handler !== undefined) return handler(req, res, () => next(index + 1));
        res.writeHead(404);
        res.end();
      };
      next(0);
    };
    return listen(listener, '', tls);
  },
};

/** Each service through `plantRouter` in one Express 5 app, at its prefix. */
export const expressMount: Mount = {
  name: 'plantRouter in Express 5',
  start(services, tls) {
    const app = express();
    for (const [prefix, options] of Object.entries(services))
      app.use(prefix, plantRouter(quiet(options)));
    return listen(app, '', tls);
  },
};

export const mounts: readonly Mount[] = [nodeMount, expressMount];

/**
 * Each service through `plantRouter` at the root of one Express 5 app, with its prefix as `basePath`,
 * so the route sees the whole path; any RFC 9728 metadata document is mounted at the app's root with
 * the service's own endpoint. Mounted at a prefix ({@link expressMount}), @plantstore/express hands
 * the core `req.originalUrl` too: the DPoP tests check a proof for the URL the client sent there.
 */
export const expressRootMount: Mount = {
  name: 'plantRouter at the root of Express 5',
  start(services, tls) {
    const app = express();
    for (const [prefix, options] of Object.entries(services)) {
      const router = plantRouter({ ...quiet(options), basePath: prefix });
      const metadata = router.service.resourceMetadata;
      if (metadata !== undefined) {
        app.all([...metadata.paths], (req, res) => writeAnswer(res, metadata.answer(req.method)));
      }
      app.use(router);
    }
    return listen(app, '', tls);
  },
};

/** The mounts where a DPoP proof for the URL the client sent holds. */
export const dpopMounts: readonly Mount[] = [nodeMount, expressRootMount];

/**
 * The URL clients reach the host application's root at: the API's resource indicator, as a
 * TLS-terminating proxy would serve it. Services take it as `publicUrl`; proofs name it in `htu`.
 */
export const PUBLIC_URL = API;

/**
 * The public URL of the route mounted at `prefix`, as a client names it in a proof's `htu`.
 *
 * @param prefix - where the service is mounted, such as `/dpop`
 */
export function routeUrl(prefix: string): string {
  return `${PUBLIC_URL}${prefix}/plants`;
}

/**
 * Resolves a URL under {@link PUBLIC_URL} to the host on 127.0.0.1, as the proxy in front of it
 * would: the client uses the public URL, the request reaches the host.
 *
 * @param host - the running host application
 * @param url - a URL the route published, such as its `resource_metadata`
 * @returns the same path on the host
 */
export function reach(host: ContractHost, url: string): string {
  if (!url.startsWith(`${PUBLIC_URL}/`)) throw new Error(`${url} is not under ${PUBLIC_URL}`);
  return `${host.url}${url.slice(PUBLIC_URL.length)}`;
}

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
  return postPlantWith(host, prefix, { authorization: `Bearer ${token}` }, plant);
}

/**
 * Sends `POST {url}{prefix}/plants` with these credentials (`Authorization`, `DPoP`, `Client-Cert`)
 * and a JSON body.
 *
 * @param host - the running host application
 * @param prefix - where the service is mounted
 * @param credentials - the credential headers, lower-case
 * @param plant - the JSON body
 * @param tls - to an HTTPS host: the CA to trust, and the client certificate to present, if any
 */
export function postPlantWith(
  host: ContractHost,
  prefix: string,
  credentials: Readonly<Record<string, string>>,
  plant: Readonly<Record<string, unknown>>,
  tls?: ClientTls,
): Promise<Reply> {
  return send(host.url, {
    path: `${prefix}/plants`,
    headers: { ...credentials, 'content-type': 'application/json' },
    body: JSON.stringify(plant),
    ...(tls !== undefined && { tls }),
  });
}
