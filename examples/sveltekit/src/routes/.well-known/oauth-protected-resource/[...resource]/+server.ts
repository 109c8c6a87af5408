import type { RequestHandler } from '@sveltejs/kit';
import { contractRoute } from '$lib/contract-host';

// The RFC 9728 metadata of the contract host's route, at the root where the contract looks for it.
const metadata = contractRoute('/contract/api');

export const fallback: RequestHandler = ({ request }) => metadata(request);
