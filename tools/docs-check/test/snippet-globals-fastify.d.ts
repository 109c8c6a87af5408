// Globals of the pages about Fastify.
declare const app: import('fastify').FastifyInstance;
