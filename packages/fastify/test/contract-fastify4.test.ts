import { describeFastifyContract } from './fastify-contract';

describeFastifyContract('Fastify 4');
