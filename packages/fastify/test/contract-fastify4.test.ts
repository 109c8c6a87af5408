import fastify4 from 'fastify4';
import { describeFastifyContract } from './fastify-contract';

describeFastifyContract('Fastify 4', fastify4);
