import { describeHttpContract } from '../src/index';
import { nodeHandlerTarget } from '../src/hosts/index';

describeHttpContract('createNodeHandler on node:http', nodeHandlerTarget(true));

describeHttpContract('createNodeHandler answering on its own', nodeHandlerTarget(false));
