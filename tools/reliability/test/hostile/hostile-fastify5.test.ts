import { describeHostileHost, FRAMEWORK_HOSTILE } from '../../src/hostile/describe-host';

describeHostileHost('Fastify 5', FRAMEWORK_HOSTILE);
