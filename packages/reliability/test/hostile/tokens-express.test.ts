import { describeTokenAttacks } from '../../src/hostile/describe-token-attacks';

describeTokenAttacks('Express 5');
