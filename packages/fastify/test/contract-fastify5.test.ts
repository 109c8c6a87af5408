import { describeFastifyContract } from '@plantstore/http-suite';
import * as adapter from '../src/index';

describeFastifyContract('Fastify 5', adapter);
