import { describeExpressContract } from './express-contract';
import express5 from 'express5';

describeExpressContract('Express 5', express5);
