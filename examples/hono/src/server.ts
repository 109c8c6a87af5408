import { serve } from '@hono/node-server';
import { createExample, printStarted } from './example';

// The Hono app on Node.js, through @hono/node-server.
const example = await createExample(process.env);
const server = serve(
  { fetch: example.app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' },
  ({ port }) => printStarted(`Node.js ${process.version}`, port, example.devToken),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void example.close();
  });
}
