import type { ServerInit } from '@sveltejs/kit';
import { startDevIdentity } from '$lib/dev-identity';

// Runs once when the server starts, before it answers: a development issuer when no identity
// provider is configured (see src/lib/dev-identity.ts).
export const init: ServerInit = () => startDevIdentity(process.env);
