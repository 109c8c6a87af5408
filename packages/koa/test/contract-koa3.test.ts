import { describeKoaContract } from './contract-matrix';

describeKoaContract('Koa 3');
