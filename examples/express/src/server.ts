import { createPlantService, jwtBearer } from '@plantstore/core';
import { createTokenIssuer } from '@plantstore/core/testing';
import { createApp } from './app';
import { createStore } from './store';

// Development only: a local identity provider on 127.0.0.1 that serves a JWKS and mints a token,
// so the route can be tried with curl at once. In production, point jwtBearer at your provider.
// ES256: its keys are made in a millisecond, where RSA's take a few hundred. Both start at once.
const started = performance.now();
const [idp, { store, close: closeStore }] = await Promise.all([
  createTokenIssuer({ audience: 'https://plants.example.com', algorithm: 'ES256' }),
  createStore(),
]);
console.log(
  `Store ready in ${Math.round(performance.now() - started)} ms (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite in .data/plants'}).`,
);
const plants = createPlantService({
  store,
  auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
});
await plants.ready();

const port = Number(process.env.PORT ?? 3000);
const server = createApp({ plants }).listen(port, '127.0.0.1', () => {
  void idp.sign({ sub: 'developer' }, { expiresIn: '1 h' }).then((token) => {
    console.log(`Plantstore in an Express app: http://127.0.0.1:${port}/api/plants`);
    console.log(`curl -i -X POST http://127.0.0.1:${port}/api/plants \\
  -H 'authorization: Bearer ${token}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}'`);
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void Promise.all([plants.close().then(closeStore), idp.close()]);
  });
}
