import { createExample, printStarted } from './example';

// The Elysia app on Bun: app.listen() is Bun.serve underneath.
const example = await createExample(process.env);
const app = example.app.listen({
  port: Number(process.env.PORT ?? 3000),
  hostname: '127.0.0.1',
});
printStarted(app.server?.port ?? 0, example.devToken);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app
      .stop(true)
      .then(() => example.close())
      .then(() => process.exit(0));
  });
}
