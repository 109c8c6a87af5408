import { describeFuzz } from '../../src/hostile/describe-fuzz';

describeFuzz('Express 5');
