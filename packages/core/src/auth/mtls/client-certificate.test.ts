import { once } from 'node:events';
import { connect, createServer, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { certificateThumbprint } from './certificate-thumbprint';
import { clientCertHeader, selfSignedCertificate } from './certificates.test-support';
import { headerCertificate, peerCertificate } from './client-certificate';

const server = selfSignedCertificate('127.0.0.1');
const client = selfSignedCertificate('client-a');
const other = selfSignedCertificate('client-b');
const thumbprint = certificateThumbprint(client.der);

describe('headerCertificate', () => {
  it("reads RFC 9440's byte sequence: the DER in base64 between colons", () => {
    expect(headerCertificate([clientCertHeader(client)])?.thumbprint).toBe(thumbprint);
    expect(headerCertificate([` ${clientCertHeader(other)} `])?.thumbprint).toBe(
      certificateThumbprint(other.der),
    );
  });

  it("reads nginx's $ssl_client_escaped_cert: the PEM, URL-encoded", () => {
    const nginx = client.cert.replaceAll(' ', '%20').replaceAll('\n', '%0A').replaceAll('+', '%2B');
    expect(headerCertificate([nginx])?.thumbprint).toBe(thumbprint);
    expect(headerCertificate([encodeURIComponent(client.cert)])?.thumbprint).toBe(thumbprint);
  });

  it('treats other forms and garbage as no certificate', () => {
    const pem = client.cert;
    const base64 = Buffer.from(client.der).toString('base64');
    for (const value of [
      '',
      'garbage',
      ':bm90IGEgY2VydGlmaWNhdGU=:',
      base64,
      `:${Buffer.from(client.der).toString('base64url')}:`,
      `Hash=abc;Cert="${encodeURIComponent(pem)}";Subject="CN=client-a"`,
      '-----BEGIN%20CERTIFICATE-----%0A%E0%A4%A%0A-----END%20CERTIFICATE-----',
    ]) {
      expect(headerCertificate([value]), value.slice(0, 20)).toBeUndefined();
    }
  });

  it('treats a header sent twice as no certificate, as two fields or joined by a comma', () => {
    const value = clientCertHeader(client);
    const escaped = encodeURIComponent(client.cert);
    expect(headerCertificate([value, value])).toBeUndefined();
    expect(headerCertificate([`${value}, ${value}`])).toBeUndefined();
    expect(headerCertificate([`${escaped}, ${escaped}`])).toBeUndefined();
    expect(headerCertificate([])).toBeUndefined();
    expect(headerCertificate(undefined)).toBeUndefined();
  });
});

describe('peerCertificate', () => {
  const tls = createServer({
    key: server.key,
    cert: server.cert,
    requestCert: true,
    rejectUnauthorized: false,
  });
  const accepted: TLSSocket[] = [];
  tls.on('secureConnection', (socket) => accepted.push(socket));
  afterAll(async () => {
    for (const socket of accepted) socket.destroy();
    await new Promise((resolve) => tls.close(resolve));
  });

  async function connection(certificate?: typeof client): Promise<TLSSocket> {
    if (!tls.listening) await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const count = accepted.length;
    const socket = connect({
      host: '127.0.0.1',
      port: (tls.address() as AddressInfo).port,
      ca: server.cert,
      ...(certificate === undefined ? {} : { key: certificate.key, cert: certificate.cert }),
    });
    await once(socket, 'secureConnect');
    while (accepted.length === count) await once(tls, 'secureConnection');
    socket.destroy();
    return accepted[count] as TLSSocket;
  }

  it("reads a TLS connection's client certificate once, whatever asks for it", async () => {
    const socket = await connection(client);
    const first = peerCertificate(socket);
    expect(first?.thumbprint).toBe(thumbprint);
    expect(Buffer.from(first?.der ?? []).equals(Buffer.from(client.der))).toBe(true);
    expect(peerCertificate(socket)).toBe(first);
  });

  it('finds no certificate on a connection without one, or on no TLS connection', async () => {
    expect(peerCertificate(await connection())).toBeUndefined();
    expect(peerCertificate({})).toBeUndefined();
    expect(peerCertificate({ encrypted: true, getPeerCertificate: () => ({}) })).toBeUndefined();
    expect(peerCertificate(undefined)).toBeUndefined();
  });

  it("refuses a client's TLS 1.2 renegotiation once it has read the certificate, so it cannot change", async () => {
    const tls12 = createServer({
      key: server.key,
      cert: server.cert,
      requestCert: true,
      rejectUnauthorized: false,
      maxVersion: 'TLSv1.2',
    });
    const serverSide = once(tls12, 'secureConnection') as Promise<[TLSSocket]>;
    await new Promise<void>((resolve) => tls12.listen(0, '127.0.0.1', resolve));
    const socket = connect({
      host: '127.0.0.1',
      port: (tls12.address() as AddressInfo).port,
      ca: server.cert,
      key: client.key,
      cert: client.cert,
      maxVersion: 'TLSv1.2',
    });
    socket.on('error', () => undefined);
    await once(socket, 'secureConnect');
    const [accepted] = await serverSide;
    const refused = once(accepted, 'error') as Promise<[NodeJS.ErrnoException]>;
    expect(peerCertificate(accepted)?.thumbprint).toBe(thumbprint);
    socket.renegotiate({ rejectUnauthorized: false }, () => undefined);
    const [error] = await refused;
    expect(error.code).toBe('ERR_TLS_RENEGOTIATION_DISABLED');
    socket.destroy();
    accepted.destroy();
    await new Promise((resolve) => tls12.close(resolve));
  });
});
