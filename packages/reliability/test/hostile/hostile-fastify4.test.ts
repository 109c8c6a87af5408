import { describeHostileHost } from '../../src/hostile/describe-host';

describeHostileHost('Fastify 4');
