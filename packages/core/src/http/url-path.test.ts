import { describe, expect, it } from 'vitest';
import { urlPath } from './url-path';

// Plain paths (read without parsing) and every kind URL parsing changes (parsed).
const URLS = [
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

describe('urlPath', () => {
  it.each(URLS)('gives the path new URL gives for %s', (url) => {
    expect(urlPath(url)).toBe(new URL(url).pathname);
  });
});
