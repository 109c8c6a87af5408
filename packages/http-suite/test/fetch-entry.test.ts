import { describeHttpContract, fetchEntryTarget } from '../src/index';

describeHttpContract('fetch entry on node:http', fetchEntryTarget);
