// Runs once when the server starts, before it answers: on the Node.js runtime, a development issuer
// when no identity provider is configured (see src/dev-identity.ts).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startDevIdentity } = await import('@example/dev-identity');
    await startDevIdentity(process.env);
  }
}
