import { createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
import { createTokenIssuer } from '@plantstore/core/testing';
import { createApp } from './app';

// Development only: a local identity provider on 127.0.0.1 that serves a JWKS and mints a token,
// so the route can be tried with curl at once. In production, point jwtBearer at your provider.
const idp = await createTokenIssuer({ audience: 'https://plants.example.com', algorithm: 'ES256' });
const plants = createPlantService({
  store: memoryStore(),
  auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
});
await plants.ready();

const port = Number(process.env.PORT ?? 3000);
const server = createApp(plants).listen(port, '127.0.0.1', () => {
  void idp.sign({ sub: 'developer' }, { expiresIn: '1 h' }).then((token) => {
    console.log(`Plantstore on node:http: http://127.0.0.1:${port}/plants`);
    console.log(`curl -i -X POST http://127.0.0.1:${port}/plants \\
  -H 'authorization: Bearer ${token}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}'`);
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void Promise.all([plants.close(), idp.close()]);
  });
}
