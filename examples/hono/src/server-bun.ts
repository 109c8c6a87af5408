import { createExample, printStarted } from './example';

// The same Hono app on Bun: app.fetch is Bun.serve's handler as it is.
const example = await createExample(process.env);
const server = Bun.serve({
  fetch: example.app.fetch,
  port: Number(process.env.PORT ?? 3000),
  hostname: '127.0.0.1',
});
printStarted(`Bun ${Bun.version}`, server.port ?? 0, example.devToken);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server
      .stop(true)
      .then(() => example.close())
      .then(() => process.exit(0));
  });
}
