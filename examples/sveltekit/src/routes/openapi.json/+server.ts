import { createOpenApiDocument } from '@plantstore/core/openapi';
import type { RequestHandler } from '@sveltejs/kit';

const openapi = createOpenApiDocument({ basePath: '/api' });

export const GET: RequestHandler = () => Response.json(openapi);
