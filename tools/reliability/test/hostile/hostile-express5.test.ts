import { describeHostileHost, FRAMEWORK_HOSTILE } from '../../src/hostile/describe-host';

describeHostileHost('Express 5', FRAMEWORK_HOSTILE);
