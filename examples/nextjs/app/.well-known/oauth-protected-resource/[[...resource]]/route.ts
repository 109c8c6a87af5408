import { contractRoute } from '@example/contract-host';

// The RFC 9728 metadata of the contract host's route, at the root where the contract looks for it.
const metadata = contractRoute('/contract/node/api');

export { metadata as GET, metadata as HEAD, metadata as POST, metadata as PUT };
