import { describeGuardContract, fastifyGuardTarget } from '@plantstore/http-suite';
import { FASTIFY_MAJORS } from '@plantstore/http-suite/hosts';
import * as adapter from '../src/index';

describeGuardContract('Fastify 4', fastifyGuardTarget(FASTIFY_MAJORS['Fastify 4'], adapter));
