import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLinks } from '../src/links/check-links';

const WEB = 'https://github.com/acme/plants';
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function repository(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'links-'));
  folders.push(folder);
  const all = {
    'package.json': JSON.stringify({
      repository: { type: 'git', url: `git+${WEB}.git` },
      homepage: `${WEB}#readme`,
      bugs: `${WEB}/issues`,
    }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

describe('checkLinks', () => {
  it('names each link to a missing file or heading, relative or on GitHub, and nothing else', () => {
    const root = repository({
      'docs/hosts/koa.md': '# Koa\n\n## Mounting `prefix`\n',
      'docs/README.md': [
        '[Koa](hosts/koa.md), [mounting](hosts/koa.md#mounting-prefix), [top](#docs), [src](../src)',
        '[gone](hosts/express.md) and [no such heading](hosts/koa.md#routing)',
        `[on GitHub](${WEB}/blob/main/docs/hosts/koa.md#mounting-prefix), [away](${WEB}/blob/main/docs/gone.md)`,
        '[elsewhere](https://example.com/x.md#y), `[code](nowhere.md)`, [out](../../outside.md)',
        '# Docs',
      ].join('\n'),
      'src/index.ts': '',
    });
    expect(checkLinks(root, ['docs/README.md', 'docs/hosts/koa.md'])).toEqual([
      'docs/README.md:2: hosts/express.md: docs/hosts/express.md does not exist',
      'docs/README.md:2: hosts/koa.md#routing: docs/hosts/koa.md has no heading #routing',
      `docs/README.md:3: ${WEB}/blob/main/docs/gone.md: docs/gone.md does not exist`,
      'docs/README.md:4: ../../outside.md: ../outside.md does not exist',
    ]);
  });
});
