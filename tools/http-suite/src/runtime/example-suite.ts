import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConflictError, MissingTokenError, PayloadTooLargeError } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeProcess } from './runtime-process';

/** Starts an example's server program with these variables added to its environment. */
export type LaunchExample = (env: Readonly<Record<string, string>>) => Promise<RuntimeProcess>;

/** The running example, for checks of a framework's own: where it listens, and a token it takes. */
export interface RunningExample {
  readonly origin: string;
  /** A token of the issuer whose coordinates the program was started with. */
  readonly token: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Registers the checks every runtime example passes, against its real server program: the route at
 * `POST /api/plants` beside the app's own routes, tokens from a test issuer (the program reads
 * `PLANTSTORE_JWKS_URI`, `PLANTSTORE_ISSUER`, `PLANTSTORE_AUDIENCE`), its store in a fresh
 * `PLANTSTORE_DATA` folder, `PORT=0`, and plants that outlive a restart when the store is durable.
 *
 * @param name - the example, for the suite's name
 * @param launch - starts the program (Bun, Deno or Node.js as a child process)
 * @param store - `durable` when the program keeps its plants in `PLANTSTORE_DATA`
 * @param more - registers checks of the example's framework, run against the same program
 */
export function describeExampleServer(
  name: string,
  launch: LaunchExample,
  store: 'durable' | 'memory',
  more?: (example: () => RunningExample) => void,
): void {
  describe(name, () => {
    let issuer: TokenIssuer;
    let dataDir: string;
    let env: Record<string, string>;
    let server: RuntimeProcess;
    let token: string;

    beforeAll(async () => {
      [issuer, dataDir] = await Promise.all([
        createTokenIssuer(),
        mkdtemp(join(tmpdir(), 'plantstore-example-')),
      ]);
      env = {
        PORT: '0',
        PLANTSTORE_DATA: join(dataDir, 'plants'),
        PLANTSTORE_JWKS_URI: issuer.jwksUri,
        PLANTSTORE_ISSUER: issuer.issuer,
        PLANTSTORE_AUDIENCE: issuer.audience,
      };
      [server, token] = await Promise.all([launch(env), issuer.sign({ sub: 'developer' })]);
    }, 180_000);

    afterAll(async () => {
      await server?.stop();
      await issuer?.close();
      if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
    });

    const post = (body: string, authorized = true): Promise<Response> =>
      fetch(`${server.origin}/api/plants`, {
        method: 'POST',
        headers: {
          ...(authorized ? { authorization: `Bearer ${token}` } : {}),
          'content-type': 'application/json',
        },
        body,
      });

    it('creates a plant with an exact int64 id at POST /api/plants', async () => {
      const response = await post('{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(JSON_TYPE);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toBe('{"name":"Monstera","tag":"aroid"}');
    });

    it('answers the same plant again 200, and the same id with other content 409', async () => {
      const replay = await post('{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}');
      expect(replay.status).toBe(200);
      expect(await replay.text()).toBe('{"name":"Monstera","tag":"aroid"}');
      const conflict = await post('{"id": 9007199254740993, "name": "Ivy"}');
      expect(conflict.status).toBe(409);
      expect(await conflict.json()).toEqual({ error: 409, message: new ConflictError().message });
    });

    it('answers a request without a token 401 with a bare Bearer challenge', async () => {
      const response = await post('{"id": 8, "name": "Fern"}', false);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="plantstore"');
      expect(await response.json()).toEqual({
        error: 401,
        message: new MissingTokenError().message,
      });
    });

    it('answers a body over 16 KiB 413', async () => {
      const response = await post(`{"id": 9, "name": "${'x'.repeat(16_384)}"}`);
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        error: 413,
        message: new PayloadTooLargeError(16_384).message,
      });
    });

    it('answers a duplicate key 400', async () => {
      const response = await post('{"id": 10, "name": "a", "name": "b"}');
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe(JSON_TYPE);
      expect(await response.json()).toEqual({
        error: 400,
        message: expect.stringMatching(/repeats a key/) as string,
      });
    });

    it("keeps the app's own routes: health, GET /api/plants, OpenAPI and its 404", async () => {
      const health = await fetch(`${server.origin}/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
      const list = await fetch(`${server.origin}/api/plants`);
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual([
        { name: 'Monstera', tag: 'aroid' },
        { name: 'Boston fern', tag: 'fern' },
      ]);
      const openapi = (await (await fetch(`${server.origin}/openapi.json`)).json()) as {
        paths: Record<string, unknown>;
      };
      expect(Object.keys(openapi.paths)).toEqual(['/api/plants']);
      const missing = await fetch(`${server.origin}/nowhere`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ error: 404, message: 'Nothing at GET /nowhere.' });
    });

    more?.(() => ({ origin: server.origin, token }));

    it.runIf(store === 'durable')(
      'keeps its plants across a restart on the same data folder',
      async () => {
        // A clean exit: the program closed PGlite itself (a busy machine may need a while).
        expect(await server.stop(30_000)).toBe(0);
        server = await launch(env);
        const replay = await post('{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}');
        expect(replay.status).toBe(200);
        const conflict = await post('{"id": 9007199254740993, "name": "Ivy"}');
        expect(conflict.status).toBe(409);
      },
      180_000,
    );
  });
}
