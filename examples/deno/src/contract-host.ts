import { bridgedService } from '@plantstore/http-suite/bridged';

// The contract suite's host on Deno: the core's fetch entry as Deno.serve's whole handler, with the
// suite's store and hooks reached through the bridge its test opened.
const { service, settled } = bridgedService(Deno.env.toObject(), '/api');
const server = Deno.serve(
  {
    port: 0,
    hostname: '127.0.0.1',
    onListen: ({ port }) => console.log(`contract host on Deno: http://127.0.0.1:${port}/api`),
  },
  async (request) => {
    const response = await service.fetch(request);
    await settled(); // the suite reads hook calls as soon as it has the answer
    return response;
  },
);
Deno.addSignalListener('SIGTERM', () => void server.shutdown().then(() => Deno.exit(0)));
