import Koa2 from 'koa2';
import { describeKoaContract } from './contract-matrix';

describeKoaContract('Koa 2', Koa2);
