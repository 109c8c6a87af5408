import { fileURLToPath } from 'node:url';
import { describeNextApp } from '../../nextjs/src/describe-next-app';
import { nextDecides } from '../../nextjs/src/next-skips';

describeNextApp(fileURLToPath(new URL('..', import.meta.url)), nextDecides);
