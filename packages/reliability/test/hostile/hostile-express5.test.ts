import { describeHostileHost } from '../../src/hostile/describe-host';

describeHostileHost('Express 5');
