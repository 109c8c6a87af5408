import { createContractApp } from './contract-app';

const server = Bun.serve({ fetch: createContractApp().fetch, port: 0, hostname: '127.0.0.1' });
console.log(`contract host, Hono on Bun: http://127.0.0.1:${server.port}/api`);
process.once('SIGTERM', () => void server.stop(true).then(() => process.exit(0)));
