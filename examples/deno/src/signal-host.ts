import { bridgedService } from '@plantstore/http-suite/bridged';

// Deno.serve's legacy behaviour aborts `request.signal` after every successful response. This host
// tells the test each time it fires, and answers without waiting for hook deliveries, so they are
// still on their way when the signal aborts.
const { service, report } = bridgedService(Deno.env.toObject(), '/api');
const server = Deno.serve(
  {
    port: 0,
    hostname: '127.0.0.1',
    onListen: ({ port }) => console.log(`signal host on Deno: http://127.0.0.1:${port}/api`),
  },
  (request) => {
    request.signal.addEventListener('abort', () => void report('request signal aborted'), {
      once: true,
    });
    return service.fetch(request);
  },
);
Deno.addSignalListener('SIGTERM', () => void server.shutdown().then(() => Deno.exit(0)));
