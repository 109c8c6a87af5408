import { execFile } from 'node:child_process';

/** How one try ended: the answer's status, or why the client never read one. */
export type TryOutcome = { readonly status: number } | { readonly lost: string };

/** A client that posts a body and reports whether it read the server's answer. */
export type EarlyClient = (
  url: string,
  headers: Readonly<Record<string, string>>,
  body: Uint8Array,
  file: string,
) => Promise<TryOutcome>;

/**
 * Node's own `fetch` (undici): it writes the body while it reads, so an answer sent early is read
 * unless a reset reaches it first (`EPIPE`, `ECONNRESET`).
 *
 * @example
 * ```ts
 * await fetchClient('http://127.0.0.1:3000/plants', { 'content-type': 'application/json' }, body, file); // { status: 401 }
 * ```
 */
export const fetchClient: EarlyClient = async (url, headers, body) => {
  try {
    const answer = await fetch(url, { method: 'POST', headers, body });
    await answer.arrayBuffer();
    return { status: answer.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { lost: cause?.code ?? cause?.message ?? String(error) };
  }
};

/**
 * curl, with `Expect: 100-continue` turned off: it starts on the body at once, as a client that
 * does not wait for a go-ahead does, and stops sending when an answer arrives.
 *
 * @example
 * ```ts
 * await curlClient('http://127.0.0.1:3000/plants', {}, body, '/tmp/body-2mb'); // { status: 401 }
 * ```
 */
export const curlClient: EarlyClient = (url, headers, _body, file) =>
  new Promise((resolve) => {
    const args = ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-H', 'Expect:'];
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
    args.push('--data-binary', `@${file}`, url);
    execFile('curl', args, (error, stdout, stderr) => {
      const status = Number(stdout);
      // curl exits non-zero on a reset even when it read the status: only a status counts.
      if (status > 0) resolve({ status });
      else resolve({ lost: stderr.trim() || error?.message || 'no answer' });
    });
  });
