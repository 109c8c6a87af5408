import {
  certificateHeaderSkips,
  EXCHANGES,
  exchangeSkips,
  tlsCaseSkips,
} from '@plantstore/http-suite';
import type { NextSkips } from './describe-next-app';

// What Next.js decides before or after the route, measured on `next start` (docs/nextjs.md).

const VARY =
  "on the Node.js runtime, Next.js adds its own Vary values (rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch) to every App Router answer, before the route's Authorization, so none has the contract's Vary to the letter";
const REPEATED =
  "Next.js builds the route's Request from Node's req.headers, which keeps only the first of repeated Authorization fields";
const FIRST_1000 =
  "Next.js builds the route's Request from Node's req.headers, which holds only the first 1000 fields: a Content-Encoding after 1000 others never reaches the route";
const LINGER = 'next start, not the route, decides how a connection with a body is read and closed';
const EDGE_READS =
  'Next.js reads the whole body before an Edge route runs: the route can neither refuse it unread nor time its arrival';
const METADATA_ON_NODE =
  "the contract host serves the RFC 9728 metadata from one route file at the root, on the Node.js runtime (a path has one runtime), whose answers carry Next.js's own Vary values";
const PLAIN =
  'next start serves plain HTTP, and a route handler has no connection to read a certificate from';

/** The metadata cases that compare an answer's Vary. */
const METADATA_VIEWS = [
  '/.well-known/oauth-protected-resource/plants',
  '/.well-known/oauth-protected-resource',
].flatMap((path) => [
  `serves the metadata at ${path} for GET and HEAD`,
  `answers POST ${path} 405 with Allow: GET, HEAD`,
]);

/** The DPoP and certificate cases beside the exchanges that compare an answer's Vary. */
const VARY_VIEWS = [
  'offers Bearer and DPoP, each naming the metadata, when no credentials are sent',
  'asks for a nonce with 401 use_dpop_nonce and DPoP-Nonce, and creates the plant on the retry',
  'creates a plant with a bound token and a proof for the public URL of the path sent',
  'refuses a replayed proof 401 invalid_dpop_proof',
  'refuses a proof whose htu names another host',
  'refuses a proof whose htu names the Host and X-Forwarded-Host sent with it',
  'refuses a proof whose htu leaves out the mount path (or adds one)',
  'refuses a proof whose ath is the hash of another token',
  'refuses a proof by another key than the cnf.jkt of the token',
  'refuses a bound token sent as Bearer 401 invalid_token, offering both schemes',
  'refuses a certificate-bound token where mtls is off 401 token_certificate_bound',
  ...METADATA_VIEWS,
];

/** Every case that compares an answer's Vary to the letter. */
const VARY_SKIPS = {
  ...exchangeSkips(
    EXCHANGES.map((exchange) => exchange.name),
    VARY,
  ),
  ...Object.fromEntries(VARY_VIEWS.map((name) => [name, VARY])),
  ...certificateHeaderSkips(VARY),
};

const shared = {
  ...exchangeSkips(['repeated authorization'], REPEATED),
  'answers repeated Authorization headers 400 invalid_request': REPEATED,
  ...exchangeSkips(['fillers'], FIRST_1000),
  ...exchangeSkips(['linger'], LINGER),
  ...tlsCaseSkips(PLAIN),
};

/** The contract's cases Next.js (15 and 16) decides on `next start`, per runtime, with the reasons. */
export const nextSkips: NextSkips = {
  node: { ...VARY_SKIPS, ...shared },
  edge: {
    ...shared,
    ...exchangeSkips(['huge', 'huge 415', 'linger'], EDGE_READS),
    ...Object.fromEntries(METADATA_VIEWS.map((name) => [name, METADATA_ON_NODE])),
    'answers an unauthenticated request without reading its body': EDGE_READS,
    'answers 408 when the body does not arrive within the read time-out': EDGE_READS,
    ...certificateHeaderSkips(
      "the Edge runtime has no node:crypto to parse the header's X.509 certificate (the route refuses clientCertificateHeader at start-up there)",
    ),
  },
};
