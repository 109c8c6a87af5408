import { fileURLToPath } from 'node:url';
import { describeNextApp } from '../../nextjs/src/describe-next-app';
import { nextSkips } from '../../nextjs/src/next-skips';

describeNextApp(fileURLToPath(new URL('..', import.meta.url)), nextSkips);
