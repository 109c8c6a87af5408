import type { PlantLogger, PlantService } from '@plantstore/core';
import {
  type BodySource,
  lingerOnClose,
  nodeHeaderReader,
  type PlantAnswer,
} from '@plantstore/core/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers one request of the route: translates it for the core, then sends the core's answer
 * through `reply`, so the host's `onSend` and `onResponse` hooks see it like any other, and leaves
 * the principal on `request.plantstore`.
 *
 * @param service - the service
 * @param request - a request Fastify's router matched to the route
 * @param reply - its reply
 * @param body - the unread body stream (after the host's `preParsing` hooks, if any)
 * @param logger - where what the request causes is logged (`request.log`), when the plugin logs
 * @returns the reply, sent
 */
export async function answer(
  service: PlantService,
  request: FastifyRequest,
  reply: FastifyReply,
  body: BodySource,
  logger?: PlantLogger,
): Promise<FastifyReply> {
  const query = request.url.indexOf('?');
  const result = await service.handle({
    method: request.method,
    path: query === -1 ? request.url : request.url.slice(0, query),
    // The URL as the client sent it, before a `rewriteUrl`: DPoP proofs name it (`htu`).
    originalUrl: request.originalUrl,
    headers: nodeHeaderReader(request.raw),
    // The connection, for the TLS client certificate a bound token needs (RFC 8705).
    socket: request.raw.socket,
    body,
    // Fastify's router matched method and path, with the host's own routing options.
    matched: true,
    logger,
  });
  request.plantstore = { principal: result.principal };
  return sendAnswer(reply, result);
}

/**
 * Sends an answer of the core through `reply`, so the host's `onSend` and `onResponse` hooks see it
 * like any other: the route's and a guard's refusals alike.
 *
 * @param reply - the request's reply
 * @param result - the core's answer
 * @returns the reply, sent
 */
export function sendAnswer(reply: FastifyReply, result: PlantAnswer): FastifyReply {
  const vary = reply.getHeader('vary');
  reply.code(result.status).headers(result.headers);
  // A host's CORS hook may have set `Vary: Origin` already: add to it, do not replace it.
  if (vary !== undefined) reply.header('vary', `${String(vary)}, ${result.headers.vary ?? ''}`);
  lingerOnClose(reply.raw, result);
  return reply.send(result.body);
}
