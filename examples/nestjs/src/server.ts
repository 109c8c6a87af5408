import { createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
import { createTokenIssuer } from '@plantstore/core/testing';
import { SwaggerModule } from '@nestjs/swagger';
import { createApiDocument } from './api-document';
import { createNestApp } from './app';

// Development only: a local identity provider on 127.0.0.1 that serves a JWKS and mints a token,
// so the route can be tried with curl at once. In production, point jwtBearer at your provider,
// and give the service a durable store (postgresStore from @plantstore/postgres).
const idp = await createTokenIssuer({ audience: 'https://plants.example.com', algorithm: 'ES256' });
const plants = createPlantService({
  store: memoryStore(),
  auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
});

const app = await createNestApp({ plants });
// The app's API reference, its controllers and the plants route in one document: /docs, /docs-json.
SwaggerModule.setup('docs', app, createApiDocument(app));
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
const url = await app.getUrl();
const token = await idp.sign({ sub: 'developer' }, { expiresIn: '1 h' });
console.log(`API reference: ${url}/docs (OpenAPI document: ${url}/docs-json)`);
console.log(`Plantstore in a NestJS app: ${url}/api/plants`);
console.log(`curl -i -X POST ${url}/api/plants \\
  -H 'authorization: Bearer ${token}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}'`);

// Nest's shutdown hooks close the app and the plants service; the issuer is this file's own.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void idp.close());
