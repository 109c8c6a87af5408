import type { NextDecides } from './describe-next-app';

// What Next.js decides before or after the route, measured on `next start` (docs/hosts/nextjs.md).

const VARY =
  "on the Node.js runtime, Next.js adds its own Vary values (rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch) to every App Router answer, before the route's Authorization, so none has the contract's Vary to the letter";
const REPEATED =
  "Next.js builds the route's Request from Node's req.headers, which keeps only the first of repeated Authorization fields";
const FIRST_1000 =
  "Next.js builds the route's Request from Node's req.headers, which holds only the first 1000 fields: a Content-Encoding after 1000 others never reaches the route";
const LINGER = 'next start, not the route, decides how a connection with a body is read and closed';
const RESETS =
  'next start, not the route, decides how a connection with a declared body it does not read is closed: it can reset one whose client is still sending before the client reads the answer (seen once on Next.js 15 in a full run)';
const EDGE_READS =
  'Next.js reads the whole body before an Edge route runs: the route can neither refuse it unread nor time its arrival';
const METADATA_ON_NODE =
  "the contract host serves the RFC 9728 metadata from one route file at the root, on the Node.js runtime (a path has one runtime), whose answers carry Next.js's own Vary values";
const PLAIN =
  'next start serves plain HTTP, and a route handler has no connection to read a certificate from';

/** The metadata cases that compare an answer's Vary (its raw-socket cases compare none). */
const METADATA_VIEWS = ['metadata.resource-path', 'metadata.root'].flatMap((id) => [
  id,
  `${id}.post`,
]);

const shared = {
  'exchange.repeated-authorization': REPEATED,
  'auth.repeated-field': REPEATED,
  'raw.fillers': FIRST_1000,
  'raw.linger': LINGER,
  'metadata.declared-body.get': RESETS,
  'metadata.declared-body.post': RESETS,
  tls: PLAIN,
};

/** The contract's cases Next.js (15 and 16) decides on `next start`, per runtime, with the reasons. */
export const nextDecides: NextDecides = {
  node: {
    ...shared,
    // Every case that compares an answer's Vary to the letter.
    exchange: VARY,
    dpop: VARY,
    'client-cert-header': VARY,
    'tls.binding-off': VARY,
    ...Object.fromEntries(METADATA_VIEWS.map((id) => [id, VARY])),
  },
  edge: {
    ...shared,
    'raw.huge': EDGE_READS,
    'raw.huge-415': EDGE_READS,
    'raw.linger': EDGE_READS,
    ...Object.fromEntries(METADATA_VIEWS.map((id) => [id, METADATA_ON_NODE])),
    'auth.before-body': EDGE_READS,
    'limits.read-timeout': EDGE_READS,
    'client-cert-header':
      "the Edge runtime has no node:crypto to parse the header's X.509 certificate (the route refuses clientCertificateHeader at start-up there)",
  },
};
