import { describe, expect, it } from 'vitest';
import { urlPath } from './url-path';

describe('urlPath', () => {
  it('gives the path new URL gives, with and without parsing', () => {
    const urls = [
      'http://127.0.0.1:3000/api/plants',
      'http://127.0.0.1:3000/api/plants?x=1#y',
      'https://user:pw@example.com/api/plants/',
      'http://example.com//api/plants',
      'http://example.com/api/./plants',
      'http://example.com/api/../api/plants',
      'http://example.com/api%2Fplants',
      'http://example.com/api\\plants',
      'http://example.com/api/pl ants',
      'http://example.com/api/plänts',
      'http://example.com',
      'http://example.com?x',
      "http://example.com/a!$&'()*+,;=:@~_-/b",
    ];
    for (const url of urls) expect(urlPath(url), url).toBe(new URL(url).pathname);
  });
});
