import { describeHostileHost, FRAMEWORK_HOSTILE } from '../../src/hostile/describe-host';

describeHostileHost('Express 4', FRAMEWORK_HOSTILE);
