import { describeGuardContract, koaGuardTarget } from '@plantstore/http-suite';
import { KOA_MAJORS } from '@plantstore/http-suite/hosts';
import * as adapter from '../src/index';

describeGuardContract('Koa 2', koaGuardTarget(KOA_MAJORS['Koa 2'], adapter));
