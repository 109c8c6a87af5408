import { describeExpressContract } from './express-contract';

describeExpressContract('Express 4');
