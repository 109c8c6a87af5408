import { describeGuardContract, expressGuardTarget } from '@plantstore/http-suite';
import { EXPRESS_MAJORS } from '@plantstore/http-suite/hosts';
import * as adapter from '../src/index';

describeGuardContract('Express 5', expressGuardTarget(EXPRESS_MAJORS['Express 5'], adapter));
