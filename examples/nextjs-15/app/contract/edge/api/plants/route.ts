import { contractRoute, passedOn } from '@example/contract-host';

export const runtime = 'edge';
export const POST = contractRoute('/contract/edge/api');
export { passedOn as GET, passedOn as PUT, passedOn as PATCH, passedOn as DELETE };
