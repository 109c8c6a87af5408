// Read by the root vitest.config.ts too, so this module imports nothing.

/**
 * What a contract case exercises, so that a host runs the cases its own code can change and says
 * which ones it decides before the route. Each tag is also a vitest tag (`--tags-filter=tls`).
 */
export const CASE_TAGS = {
  created: 'a plant created or answered again (200, 409)',
  store: 'what the store keeps and answers: a store under test can change it',
  body: 'how the body is read, decoded and judged (400, 415)',
  'body-read': 'when and how far the body is read: time-outs, limits, refusals before reading',
  auth: 'the bearer check and its challenges (401, 403)',
  failures: "the route's answers to a failing store or key set (500, 503)",
  hooks: 'what the hooks are given',
  mounting: 'what the place the route is mounted at can change: paths, public URLs, passing on',
  exchange: 'a request answered to the letter: status, contract headers and body',
  closes: 'an answer that closes the connection (Connection: close)',
  'raw-socket': 'a request only a raw socket can send: how the connection is read and closed',
  dpop: 'DPoP proofs (RFC 9449)',
  metadata: 'the protected resource metadata (RFC 9728)',
  tls: "certificate-bound tokens over the connection's own TLS (RFC 8705)",
  'client-cert-header': "certificate-bound tokens through a trusted proxy's Client-Cert header",
  'hostile-input':
    'a hostile body, header or framing of the catalog (docs/reference/reliability.md)',
  'token-attack': 'a forged or altered token: the verifier alone decides it, whatever the host',
  guard: "a host's other routes behind a guard made from the route's service",
  'token-placement':
    "credentials repeated, misplaced or in another scheme: the host's headers count",
} as const;

/** A tag of {@link CASE_TAGS}. */
export type CaseTag = keyof typeof CASE_TAGS;
