import { describeExpressContract } from './express-contract';

describeExpressContract('Express 5');
