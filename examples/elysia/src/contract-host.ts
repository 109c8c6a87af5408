import { createContractApp } from './contract-app';

const app = createContractApp().listen({ port: 0, hostname: '127.0.0.1' });
console.log(`contract host, Elysia on Bun: http://127.0.0.1:${app.server?.port}/api`);
process.once('SIGTERM', () => void app.stop(true).then(() => process.exit(0)));
