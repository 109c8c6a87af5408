import type { RequestHandler } from '@sveltejs/kit';
import { notFound } from '$lib/not-found';

// The app's own 404 for every path and method no other endpoint serves.
export const fallback: RequestHandler = ({ request }) => notFound(request);
