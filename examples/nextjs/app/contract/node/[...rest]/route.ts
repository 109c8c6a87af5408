import { passedOn } from '@example/contract-host';

export { passedOn as GET, passedOn as POST, passedOn as PUT, passedOn as PATCH };
export { passedOn as DELETE };
