import type { RequestHandler } from '@sveltejs/kit';
import { contractRoute, passedOn } from '$lib/contract-host';

const plants = contractRoute('/contract/api');

export const POST: RequestHandler = ({ request }) => plants(request);
export const fallback: RequestHandler = ({ request }) => passedOn(request);
