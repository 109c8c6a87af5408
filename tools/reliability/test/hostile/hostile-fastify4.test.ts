import { describeHostileHost, FRAMEWORK_HOSTILE } from '../../src/hostile/describe-host';

describeHostileHost('Fastify 4', FRAMEWORK_HOSTILE);
