import { describeHostileHost } from '../../src/hostile/describe-host';

describeHostileHost('node:http');
