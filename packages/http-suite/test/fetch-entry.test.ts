import { describeHttpContract, exchangeSkips, tlsCaseSkips } from '../src/index';
import { fetchEntryTarget } from '../src/hosts/index';

// `service.fetch` never sees a socket: the Node bridge that serves it here closes as Node does.
describeHttpContract('fetch entry on node:http', fetchEntryTarget, {
  skip: {
    ...exchangeSkips(['linger'], 'a fetch entry has no socket to close gently'),
    ...tlsCaseSkips(
      'a fetch entry gets a Request, no connection: a trusted Client-Cert header is its only certificate source',
    ),
  },
});
