import { Readable } from 'node:stream';
import { createNodeHandler, createPlantService } from '@plantstore/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen } from './listen';
import type { ContractTarget } from './target';

/**
 * The Web-standard entry (`service.fetch`), served from a real `node:http` server through the
 * plainest `Request` bridge, at `/api`. It answers everything itself (404 or 405 past the route).
 */
export const fetchEntryTarget: ContractTarget = {
  passesOn: false,
  async start(options) {
    const service = createPlantService({ ...options, basePath: '/api' });
    return listen((req: IncomingMessage, res: ServerResponse) => {
      const headers = new Headers();
      for (let index = 0; index < req.rawHeaders.length; index += 2) {
        headers.append(req.rawHeaders[index] as string, req.rawHeaders[index + 1] as string);
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
        duplex: 'half',
      });
      void service.fetch(request).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(await response.text());
      });
    }, '/api');
  },
};

/**
 * `createNodeHandler` on `node:http`: at `/v1` with a `next` that answers `host:<METHOD> <path>`
 * (passes on), or at the root answering everything itself.
 *
 * @param passesOn - whether the handler gets a `next`
 * @returns the target
 * @example
 * describeHttpContract('createNodeHandler on node:http', nodeHandlerTarget(true));
 */
export function nodeHandlerTarget(passesOn: boolean): ContractTarget {
  return {
    passesOn,
    async start(options, setup) {
      const tls = setup?.tls;
      if (!passesOn) return listen(createNodeHandler(createPlantService(options)), '', tls);
      const handler = createNodeHandler(createPlantService({ ...options, basePath: '/v1' }));
      return listen(
        (req, res) =>
          handler(req, res, () => {
            res.writeHead(200, { 'content-type': 'text/plain' });
            res.end(`host:${req.method} ${req.url}`);
          }),
        '/v1',
        tls,
      );
    },
  };
}
