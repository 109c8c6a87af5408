import type { RequestHandler } from '@sveltejs/kit';
import { catalogue } from '$lib/catalogue';
import { lazyPlantService } from '$lib/plants';

// SvelteKit hands an endpoint the request unread, so the route reads the body itself: exact int64
// ids, its own size and time limits (within the adapter's BODY_SIZE_LIMIT, 512 KiB by default).
const plants = lazyPlantService('/api');

export const POST: RequestHandler = ({ request }) => plants().fetch(request);

/** The app's own route on the same path: the plants route answers only POST. */
export const GET: RequestHandler = () => Response.json(catalogue);
