import { describeHostileHost, FRAMEWORK_HOSTILE } from '../../src/hostile/describe-host';

describeHostileHost('Koa 3', FRAMEWORK_HOSTILE);
