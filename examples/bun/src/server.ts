import { createPlantService, jwtBearer } from '@plantstore/core';
import { createApp } from './app';
import { identityProvider } from './identity';
import { createStore } from './store';

const [idp, { store, close: closeStore }] = await Promise.all([
  identityProvider(process.env),
  createStore(process.env.PLANTSTORE_DATA ?? '.data/plants'),
]);
const plants = createPlantService({
  basePath: '/api',
  store,
  auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
});
await plants.ready(); // fetches the key set: fail fast at start-up

const server = Bun.serve({
  ...createApp(plants),
  port: Number(process.env.PORT ?? 3000),
  hostname: '127.0.0.1',
});
const url = `http://127.0.0.1:${server.port}/api/plants`;
console.log(`Plantstore on Bun ${Bun.version}: ${url}`);
if (idp.devToken !== undefined) {
  console.log(`curl -i -X POST ${url} \\
  -H 'authorization: Bearer ${idp.devToken}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}'`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server
      .stop(true)
      .then(() => Promise.all([plants.close().then(closeStore), idp.close()]))
      .then(() => process.exit(0));
  });
}
