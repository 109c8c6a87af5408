import { fileURLToPath } from 'node:url';
import { describeNextApp } from './describe-next-app';
import { nextDecides } from './next-skips';

describeNextApp(fileURLToPath(new URL('..', import.meta.url)), nextDecides);
