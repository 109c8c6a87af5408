import { serve } from 'h3';
import { createContractApp } from './contract-app';

// h3's own serve() on Node.js: srvx's node:http server, which hands the route a Request over the
// Node request.
const server = serve(createContractApp(), { port: 0, hostname: '127.0.0.1', silent: true });
await server.ready();
console.log(`contract host, h3 on Node.js: http://127.0.0.1:${new URL(server.url!).port}/api`);
process.once('SIGTERM', () => void server.close(true));
