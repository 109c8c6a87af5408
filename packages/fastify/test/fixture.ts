// The kit's fixture: a local identity provider, a token with `plants:write`, hosts closed after each test.
export { useHostFixture as useFixture } from '@plantstore/http-suite';
