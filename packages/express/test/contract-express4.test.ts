import { describeExpressContract } from './express-contract';
import express4 from 'express4';

describeExpressContract('Express 4', express4);
