import { describeTokenAttacks } from '../../src/hostile/describe-token-attacks';

describeTokenAttacks('Koa 3');
