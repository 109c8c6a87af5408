import { existsSync, readFileSync } from 'node:fs';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevServer, type WranglerProject, wranglerProject } from './support/wrangler-project';

// docs/hosts/cloudflare-workers.md's Worker and wrangler.toml, as the page shows them, run by wrangler itself
// (the version package.json pins, the newest on Node 20) offline and with no account: the dry run
// that prints the sizes the page quotes, the page's local migration, and `wrangler dev` answering.
// The project installs the built packages, as npm would: it needs `pnpm build`.
const built = existsSync(new URL('../../core/dist/index.js', import.meta.url));
const required = process.env['PLANTSTORE_REQUIRE_SERVICES'] === '1';
if (!built && !required) {
  console.warn('Skipping wrangler on the docs Worker: packages/core/dist is missing (pnpm build).');
}

const PAGE = new URL('../../../docs/hosts/cloudflare-workers.md', import.meta.url);
const PLANT = '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}';

/** wrangler's own line: `Total Upload: 245.27 KiB / gzip: 63.96 KiB`. */
function sizes(output: string): [number, number] {
  const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/u.exec(output);
  if (match === null) throw new Error(`wrangler printed no sizes:\n${output}`);
  return [Number(match[1]), Number(match[2])];
}

/** The page's table row for a build (`default`, `` `--minify` ``): its two figures in KiB. */
function quoted(build: string): [number, number] {
  const row = readFileSync(PAGE, 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`| ${build} `));
  const figures = [...(row ?? '').matchAll(/([\d.]+) KiB/gu)].map(([, kib]) => Number(kib));
  if (figures.length !== 2)
    throw new Error(`docs/hosts/cloudflare-workers.md: no size row for ${build}`);
  return [figures[0]!, figures[1]!];
}

describe.skipIf(!built && !required)(
  "wrangler on docs/hosts/cloudflare-workers.md's Worker, offline",
  () => {
    let issuer: TokenIssuer;
    let project: WranglerProject;

    beforeAll(async () => {
      issuer = await createTokenIssuer({ audience: 'https://api.example.com/plants' });
      project = await wranglerProject({
        JWKS_URI: issuer.jwksUri,
        ISSUER: issuer.issuer,
        AUDIENCE: issuer.audience,
        PUBLIC_URL: 'https://plants.example.workers.dev',
      });
    }, 180_000);
    afterAll(async () => {
      await project?.remove();
      await issuer?.close();
    });

    it.for<[string, string[]]>([
      ['default', []],
      ['`--minify`', ['--minify']],
    ])(
      'deploy --dry-run (%s) bundles it and prints the sizes the page quotes, within 5 %',
      // wrangler bundles in 2 s alone; on two cores shared with other suites it has taken 35 s.
      { timeout: 180_000 },
      async ([build, flags], { annotate }) => {
        const output = await project.wrangler('deploy', '--dry-run', '--outdir', 'dist', ...flags);
        expect(output).toContain('--dry-run: exiting now.');
        const [total, gzip] = sizes(output);
        await annotate(
          `wrangler deploy --dry-run ${flags.join(' ')}: ${total} KiB / gzip ${gzip} KiB`,
        );
        const [pageTotal, pageGzip] = quoted(build);
        expect(Math.abs(total - pageTotal) / pageTotal).toBeLessThan(0.05);
        expect(Math.abs(gzip - pageGzip) / pageGzip).toBeLessThan(0.05);
      },
    );

    describe('wrangler dev', () => {
      let dev: DevServer;
      beforeAll(async () => {
        dev = await project.dev();
      }, 180_000);
      afterAll(async () => {
        await dev?.stop();
      });

      const create = (token: string) =>
        fetch(`${dev.origin}/api/plants`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: PLANT,
        });

      // Retried: on two cores shared with the other suites, workerd has once answered this first
      // request 500 (not reproduced alone); a retry replays the same plant, so the row check holds.
      it(
        'creates a plant with a token of the issuer in .dev.vars, into the local D1, exactly',
        { retry: 2, timeout: 180_000 },
        async () => {
          const created = await create(await issuer.sign({ sub: 'developer' }));
          // wrangler dev's output holds the Worker's console: the cause of a 5xx.
          expect(created.status, dev.output()).toBe(200);
          expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
          expect(await created.text()).toBe('{"name":"Monstera","tag":"aroid"}');
          const rows = await project.wrangler(
            'd1',
            'execute',
            'plants',
            '--local',
            '--json',
            '--command',
            'SELECT CAST(id AS TEXT) AS id, name, tag FROM plants',
          );
          const [{ results }] = JSON.parse(rows.slice(rows.indexOf('['))) as [
            { results: unknown[] },
          ];
          expect(results).toStrictEqual([
            { id: '9007199254740993', name: 'Monstera', tag: 'aroid' },
          ]);
        },
      );

      it('answers a token of another issuer with 401 invalid_token', async () => {
        const stranger = await createTokenIssuer({ audience: issuer.audience });
        try {
          const refused = await create(await stranger.sign({ sub: 'developer' }));
          expect(refused.status, dev.output()).toBe(401);
          expect(refused.headers.get('www-authenticate')).toMatch(
            /^Bearer realm="plantstore", error="invalid_token", error_description="[^"]+"/u,
          );
          expect(await refused.json()).toMatchObject({ error: 401 });
        } finally {
          await stranger.close();
        }
      }, 60_000);
    });
  },
);
