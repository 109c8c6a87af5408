import { describeFuzz } from '../../src/hostile/describe-fuzz';

describeFuzz('Fastify 5');
