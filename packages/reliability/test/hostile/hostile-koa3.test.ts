import { describeHostileHost } from '../../src/hostile/describe-host';

describeHostileHost('Koa 3');
