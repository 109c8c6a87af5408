import { createPlantService, jwtBearer } from '@plantstore/core';
import { createApp } from './app';
import { identityProvider } from './identity';
import { createStore } from './store';

const env = Deno.env.toObject();
const [idp, { store, close: closeStore }] = await Promise.all([
  identityProvider(env),
  createStore(env['PLANTSTORE_DATA'] ?? '.data/plants'),
]);
const plants = createPlantService({
  basePath: '/api',
  store,
  auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
});
await plants.ready(); // fetches the key set: fail fast at start-up

const server = Deno.serve(
  {
    port: Number(env['PORT'] ?? 3000),
    hostname: '127.0.0.1',
    onListen({ port }) {
      const url = `http://127.0.0.1:${port}/api/plants`;
      console.log(`Plantstore on Deno ${Deno.version.deno}: ${url}`);
      if (idp.devToken === undefined) return;
      console.log(`curl -i -X POST ${url} \\
  -H 'authorization: Bearer ${idp.devToken}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}'`);
    },
  },
  createApp(plants),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  Deno.addSignalListener(signal, () => {
    void server
      .shutdown()
      .then(() => Promise.all([plants.close().then(closeStore), idp.close()]))
      .then(() => Deno.exit(0));
  });
}
