import { lambdaHandler } from '@plantstore/aws-lambda';
import { createExample } from './example';

// The function's entry (Node.js 20 or later, ESM, handler `handler.handler`): the top-level await
// runs once per instance, during its cold start. PLANTSTORE_JWKS_URI, PLANTSTORE_ISSUER and
// PLANTSTORE_AUDIENCE name your identity provider.
const example = await createExample(process.env);

/** API Gateway HTTP API (payload 2.0), REST API (1.0) and Function URL events alike. */
export const handler = lambdaHandler(example.fetch);
