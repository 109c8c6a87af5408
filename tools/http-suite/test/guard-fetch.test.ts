import { describeGuardContract } from '../src/guard/guard-contract';
import { fetchGuardTarget } from '../src/guard/guard-hosts';

describeGuardContract('the fetch entry', fetchGuardTarget);
