import { createPlantService, jwtBearer } from '@plantstore/core';
import { createTokenIssuer } from '@plantstore/core/testing';
import { createClient } from 'redis';
import { createApp } from './app';
import { redisStore } from './redis-store';

// The app owns its Redis client: it connects it here and closes it at shutdown. With the offline
// queue off, a Redis outage answers 503 at once instead of waiting for the store time-out.
const redis = createClient({
  url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  disableOfflineQueue: true,
});
redis.on('error', (error: Error) => console.error(`redis: ${error.message}`));
await redis.connect();

// Development only: a local identity provider on 127.0.0.1 that serves a JWKS and mints a token,
// so the route can be tried with curl at once. In production, point jwtBearer at your provider.
const idp = await createTokenIssuer({ audience: 'https://plants.example.com', algorithm: 'ES256' });
const plants = createPlantService({
  store: redisStore({ client: redis, prefix: 'plant:' }),
  auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
});
await plants.ready();

const port = Number(process.env.PORT ?? 3000);
const server = createApp(plants).listen(port, '127.0.0.1', () => {
  void idp.sign({ sub: 'developer' }, { expiresIn: '1 h' }).then((token) => {
    console.log(`Plantstore on Redis: http://127.0.0.1:${port}/plants`);
    console.log(`curl -i -X POST http://127.0.0.1:${port}/plants \\
  -H 'authorization: Bearer ${token}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}'`);
    console.log(`redis-cli GET plant:9007199254740993`);
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void plants
      .close()
      .then(() => Promise.all([redis.close(), idp.close()]))
      .then(() => process.exit(0));
  });
}
