import { describeHttpContract } from '../src/index';
import { fetchEntryTarget } from '../src/hosts/index';

describeHttpContract('fetch entry on node:http', fetchEntryTarget);
