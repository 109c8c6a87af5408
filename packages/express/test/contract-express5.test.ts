import { describeExpressContract } from '@plantstore/http-suite';
import * as adapter from '../src/index';

describeExpressContract('Express 5', adapter);
