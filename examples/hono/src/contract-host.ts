import { serve } from '@hono/node-server';
import { createContractApp } from './contract-app';

const server = serve(
  { fetch: createContractApp().fetch, port: 0, hostname: '127.0.0.1' },
  ({ port }) => console.log(`contract host, Hono on Node.js: http://127.0.0.1:${port}/api`),
);
process.once('SIGTERM', () => server.close());
