// `pnpm soak`: drives an Express host and a Koa host, each on PostgreSQL with jwtBearer against a
// local token issuer, with a mix of valid, replayed, conflicting and invalid requests at 50
// connections, then checks the "nothing lost" invariants against the table. SOAK_SECONDS (default
// 180) is the total, split evenly between the two adapters; DATABASE_URL defaults to the local
// server. Prints a markdown summary ending in `N passed, M failed`; exits 1 on any failure.
import { createTokenIssuer } from '@plantstore/core/testing';
import pg from 'pg';
import { ADAPTERS } from './host/adapters';
import type { MixTokens } from './soak/request-mix';
import { type AdapterSoak, soakAdapter } from './soak/soak-adapter';
import { soakReport } from './soak/soak-report';

const seconds = Number(process.env['SOAK_SECONDS'] ?? '180');
if (!Number.isFinite(seconds) || seconds < 6) {
  throw new Error(`SOAK_SECONDS must be a number of at least 6; received ${String(seconds)}`);
}
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

const issuer = await createTokenIssuer();
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
try {
  const valid = await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      issuer.sign({ sub: `soak-client-${index}`, jti: `soak-${index}` }),
    ),
  );
  const [head, payload, signature] = (valid[0] as string).split('.') as [string, string, string];
  const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
  const tokens: MixTokens = {
    valid,
    badSignature: `${head}.${payload}.${flipped}`,
    expired: await issuer.sign({}, { expiresIn: -3_600 }),
    unknownKey: await issuer.sign({}, { key: 'unpublished' }),
  };
  const auth = { jwksUri: issuer.jwksUri, issuer: issuer.issuer, audience: issuer.audience };
  const soaks: AdapterSoak[] = [];
  for (const [index, adapter] of ADAPTERS.entries()) {
    process.stderr.write(`soaking ${adapter} for ${seconds / ADAPTERS.length} s…\n`);
    soaks.push(
      await soakAdapter({
        adapter,
        space: index + 1,
        seconds: seconds / ADAPTERS.length,
        connections: 50,
        databaseUrl,
        pool,
        auth,
        tokens,
      }),
    );
  }
  const report = soakReport(soaks, seconds);
  console.log(report);
  process.exitCode = soaks.every((soak) => soak.checks.every((check) => check.ok)) ? 0 : 1;
} finally {
  await pool.end();
  await issuer.close();
}
