import type { RequestHandler } from '@sveltejs/kit';

export const GET: RequestHandler = () => Response.json({ status: 'ok' });
