import { describeExpressContract } from '@plantstore/http-suite';
import * as adapter from '../src/index';

describeExpressContract('Express 4', adapter);
