import { describeHttpContract } from '../src/index';
import { nodeHandlerTarget } from '../src/hosts/index';

describeHttpContract('createNodeHandler on node:http', nodeHandlerTarget(true));

// Without a next handler the entry answers other requests itself (404, 405): what changes is only
// what happens to requests that are not the route's.
describeHttpContract('createNodeHandler answering on its own', nodeHandlerTarget(false), {
  only: ['mounting'],
});
