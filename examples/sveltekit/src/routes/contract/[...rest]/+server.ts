import type { RequestHandler } from '@sveltejs/kit';
import { passedOn } from '$lib/contract-host';

export const fallback: RequestHandler = ({ request }) => passedOn(request);
