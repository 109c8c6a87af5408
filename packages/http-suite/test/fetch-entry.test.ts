import { describeHttpContract, exchangeSkips } from '../src/index';
import { fetchEntryTarget } from '../src/hosts/index';

// `service.fetch` never sees a socket: the Node bridge that serves it here closes as Node does.
describeHttpContract('fetch entry on node:http', fetchEntryTarget, {
  skip: exchangeSkips(['linger'], 'a fetch entry has no socket to close gently'),
});
