import { describeFuzz } from '../../src/hostile/describe-fuzz';

describeFuzz('Koa 3');
