import { describeHttpContract } from '../src/index';
import { fetchEntryTarget } from '../src/hosts/index';

// `service.fetch` never sees a socket: the Node bridge that serves it here closes as Node does.
describeHttpContract('fetch entry on node:http', fetchEntryTarget, {
  decides: {
    'raw.linger': 'a fetch entry has no socket to close gently',
    tls: 'a fetch entry gets a Request, no connection: a trusted Client-Cert header is its only certificate source',
  },
});
