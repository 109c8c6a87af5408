import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { ConflictError, MissingTokenError } from '@plantstore/core';
import { EdgeRuntime } from 'edge-runtime';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from './support/bundle-worker';
import { type RunningWorker, startWorker } from './support/start-worker';

// The proof of docs/hosts/cloudflare-workers.md: the smallest Worker that mounts the route, bundled with esbuild
// from the built packages as a user installs them, starts and answers on workerd without
// nodejs_compat and on Vercel's Edge runtime, neither of which has a Node built-in.
const built = existsSync(new URL('../../core/dist/index.js', import.meta.url));
if (!built && process.env['PLANTSTORE_REQUIRE_SERVICES'] !== '1') {
  console.warn('Skipping the built Worker bundle: packages/core/dist is missing (pnpm build).');
}

const env = {
  JWT_SECRET: 'a shared secret of at least 32 bytes, for HS256',
  ISSUER: 'https://issuer.example/',
  AUDIENCE: 'https://api.example/plants',
};
const JSON_TYPE = 'application/json; charset=utf-8';
const PLANT = '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}';

/** Sends a plant to the route, with a token or without, however the runtime takes a request. */
type Send = (body: string, token?: string) => Promise<Response>;

function describeRoute(name: string, start: () => Promise<{ send: Send; stop(): Promise<void> }>) {
  describe(name, () => {
    let route: { send: Send; stop(): Promise<void> };
    let token: string;
    beforeAll(async () => {
      [route, token] = await Promise.all([
        start(),
        new SignJWT({ scope: 'plants:write' })
          .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
          .setIssuer(env.ISSUER)
          .setAudience(env.AUDIENCE)
          .setSubject('developer')
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode(env.JWT_SECRET)),
      ]);
    }, 120_000);
    afterAll(() => route?.stop());

    it('creates a plant with an exact int64 id, and answers it again 200', async () => {
      for (let round = 0; round < 2; round += 1) {
        const response = await route.send(PLANT, token);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe(JSON_TYPE);
        expect(await response.text()).toBe('{"name":"Monstera","tag":"aroid"}');
      }
    });

    it('answers the same id with other content 409', async () => {
      const response = await route.send('{"id": 9007199254740993, "name": "Ivy"}', token);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ error: 409, message: new ConflictError().message });
    });

    it('answers a request without a token 401 with a bare Bearer challenge', async () => {
      const response = await route.send(PLANT);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="plantstore"');
      expect(await response.json()).toEqual({
        error: 401,
        message: new MissingTokenError().message,
      });
    });
  });
}

function request(body: string, token?: string): RequestInit {
  const authorization: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return {
    method: 'POST',
    headers: { ...authorization, 'content-type': 'application/json' },
    body,
  };
}

describe.skipIf(!built && process.env['PLANTSTORE_REQUIRE_SERVICES'] !== '1')(
  'the built packages in a Worker bundle',
  () => {
    it.for(['secret-worker.ts', 'docs-worker.ts'])(
      'bundles %s with no Node built-in, and says how much it weighs minified',
      async (entry, { annotate }) => {
        const script = await bundleWorker(entry, { from: 'built', minify: true });
        // esbuild resolves no `node:` module for the neutral platform, so the bundle's success says
        // it; this says it of the text too (a static import, a dynamic one, a require).
        expect(script).not.toMatch(/from\s*["']node:|\b(?:import|require)\(\s*["']node:/u);
        const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
        await annotate(
          `${entry}, esbuild --minify: ${kib(script.length)}, gzip ${kib(gzipSync(script).length)}`,
        );
      },
    );

    describeRoute('on workerd without nodejs_compat', async () => {
      const script = await bundleWorker('secret-worker.ts', { from: 'built' });
      const worker: RunningWorker = await startWorker({
        script,
        nodejsCompat: false,
        bindings: env,
      });
      return {
        send: (body, token) => fetch(`${worker.origin}/api/plants`, request(body, token)),
        stop: async () => void (await worker.stop()),
      };
    });

    describeRoute("on Vercel's Edge runtime", async () => {
      const script = await bundleWorker('edge-worker.ts', { from: 'built', format: 'iife' });
      const runtime = new EdgeRuntime({
        initialCode: script,
        extend: (context) => Object.assign(context, { PLANTSTORE_ENV: env }),
      });
      return {
        send: async (body, token) => {
          const response = await runtime.dispatchFetch(
            'https://edge.example/api/plants',
            request(body, token),
          );
          await response.waitUntil();
          return response;
        },
        stop: () => Promise.resolve(),
      };
    });
  },
);
