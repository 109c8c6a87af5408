import autocannon from 'autocannon';
import { SignJWT } from 'jose';
const port = process.argv[2];
const token = await new SignJWT({ sub: 'b' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('bench').setAudience('plants').setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode('bench-secret-bench-secret-bench-secret-0123'));
let id = 0;
const r = await autocannon({ url: `http://127.0.0.1:${port}/plants`, connections: 50, duration: Number(process.argv[3] ?? 10), method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  requests: [{ setupRequest: (req) => ({ ...req, body: `{"id":${++id},"name":"Monstera","tag":"aroid"}` }) }] });
console.log(JSON.stringify({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors }));
