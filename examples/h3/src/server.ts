import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3';
import { createExample, printStarted } from './example';

// The h3 app on a node:http server of your own, through toNodeHandler (h3's serve() is the other way,
// used by the contract host).
const example = await createExample(process.env);
const server = createServer(toNodeHandler(example.app));
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () =>
  printStarted((server.address() as AddressInfo).port, example.devToken),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void example.close();
  });
}
