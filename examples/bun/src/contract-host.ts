import { bridgedService } from '@plantstore/http-suite/bridged';

// The contract suite's host on Bun: the core's fetch entry as Bun.serve's whole handler, with the
// suite's store and hooks reached through the bridge its test opened.
const { service, settled } = bridgedService(process.env, '/api');
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const response = await service.fetch(request);
    await settled(); // the suite reads hook calls as soon as it has the answer
    return response;
  },
});
console.log(`contract host on Bun: http://127.0.0.1:${server.port}/api`);
process.once('SIGTERM', () => void server.stop(true).then(() => process.exit(0)));
