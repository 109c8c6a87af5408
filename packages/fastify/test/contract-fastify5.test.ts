import fastify5 from 'fastify5';
import { describeFastifyContract } from './fastify-contract';

describeFastifyContract('Fastify 5', fastify5);
