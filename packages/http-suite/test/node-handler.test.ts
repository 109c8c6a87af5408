import { describeHttpContract, nodeHandlerTarget } from '../src/index';

describeHttpContract('createNodeHandler on node:http', nodeHandlerTarget(true));

describeHttpContract('createNodeHandler answering on its own', nodeHandlerTarget(false));
