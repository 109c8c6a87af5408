import Koa3 from 'koa3';
import { describeKoaContract } from './contract-matrix';

describeKoaContract('Koa 3', Koa3);
