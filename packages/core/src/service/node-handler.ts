import type { IncomingMessage, ServerResponse } from 'node:http';
import { lingerOnClose } from '../http/lingering-close';
import { nodeHeaderReader } from '../http/node-headers';
import type { PlantAnswer } from '../http/request';
import type { PlantService } from './service';

/** A `node:http` request listener that can also pass on, Connect-style. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

/**
 * Serves the route from a `node:http` (or `node:https`, `http2` compat) server, reading the body
 * straight from the socket. With `next` it passes every other request on; without, it answers them
 * 404 or 405.
 *
 * @param service - the service
 * @returns a request listener
 * @example
 * ```ts
 * createServer(createNodeHandler(service)).listen(3000);
 * ```
 */
export function createNodeHandler(service: PlantService): NodeHandler {
  return (req, res, next) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const method = req.method ?? 'GET';
    if (service.resourceMetadata?.serves(path) === true) {
      return writeAnswer(res, service.resourceMetadata.answer(method, nodeHeaderReader(req)));
    }
    if (next !== undefined && !service.matches(method, path)) return next();
    void service
      .handle({ method, path, headers: nodeHeaderReader(req), body: req, socket: req.socket })
      .then((answer) => writeAnswer(res, answer))
      .catch((error: unknown) => res.destroy(error instanceof Error ? error : undefined));
  };
}

/**
 * Writes a core answer to a Node response as it is. An answer that closes the connection before
 * the body was read closes it gently (see `lingerOnClose`), so the client still reads it.
 *
 * @param res - the response
 * @param answer - the core's answer
 */
export function writeAnswer(res: ServerResponse, answer: PlantAnswer): void {
  if (res.headersSent) return;
  // A host's CORS middleware may have set `Vary: Origin` already: add to it, do not replace it.
  const vary = res.getHeader('vary');
  const headers =
    vary === undefined
      ? answer.headers
      : { ...answer.headers, vary: `${String(vary)}, ${answer.headers.vary}` };
  lingerOnClose(res, answer);
  res.writeHead(answer.status, { ...headers, 'content-length': Buffer.byteLength(answer.body) });
  res.end(answer.body);
}
