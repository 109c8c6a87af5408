import { contractRoute, passedOn } from '@example/contract-host';

export const POST = contractRoute('/contract/node/api');
export { passedOn as GET, passedOn as PUT, passedOn as PATCH, passedOn as DELETE };
