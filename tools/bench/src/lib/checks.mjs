// Before any load: every server must give the same answers to the same requests, or the
// comparison is void. Echo servers do no auth and no validation, so they answer only the first.

/**
 * The requests, each with the status every full server must answer; `body` when the answer body is
 * compared too. Ids here stay below those of the load.
 */
function cases(tokens) {
  const json = { 'content-type': 'application/json' };
  const auth = { ...json, authorization: `Bearer ${tokens.valid}` };
  return [
    {
      name: 'valid create',
      echo: true,
      headers: auth,
      body: '{"id":11,"name":"Monstera","tag":"aroid"}',
      status: 200,
      expect: { name: 'Monstera', tag: 'aroid' },
    },
    {
      name: 'valid create without tag',
      headers: auth,
      body: '{"id":12,"name":"Fern"}',
      status: 200,
      expect: { name: 'Fern' },
    },
    {
      name: 'replay of the same plant',
      headers: auth,
      body: '{"id":11,"name":"Monstera","tag":"aroid"}',
      status: 200,
      expect: { name: 'Monstera', tag: 'aroid' },
    },
    {
      name: 'another plant with a taken id',
      headers: auth,
      body: '{"id":11,"name":"Ficus"}',
      status: 409,
    },
    { name: 'missing token', headers: json, body: '{"id":13,"name":"Fern"}', status: 401 },
    {
      name: 'token of another issuer',
      headers: { ...json, authorization: `Bearer ${tokens.otherIssuer}` },
      body: '{"id":14,"name":"Fern"}',
      status: 401,
    },
    {
      name: 'token for another audience',
      headers: { ...json, authorization: `Bearer ${tokens.otherAudience}` },
      body: '{"id":15,"name":"Fern"}',
      status: 401,
    },
    { name: 'bad body: no id', headers: auth, body: '{"name":"Fern"}', status: 400 },
    {
      name: 'bad body: fractional id',
      headers: auth,
      body: '{"id":1.5,"name":"Fern"}',
      status: 400,
    },
    { name: 'bad body: not JSON', headers: auth, body: '{"id":16,', status: 400 },
    { name: 'bad body: an array', headers: auth, body: '[16]', status: 400 },
  ];
}

function sameJson(actual, expected) {
  return (
    JSON.stringify(Object.entries(actual).sort()) ===
    JSON.stringify(Object.entries(expected).sort())
  );
}

/**
 * Sends every case to every server and throws, listing every mismatch, unless all agree.
 *
 * @param {{ id: string, url: string, kind: string }[]} servers
 * @param {{ valid: string, otherIssuer: string, otherAudience: string }} tokens
 * @returns {Promise<number>} how many answers were checked
 */
export async function checkAnswers(servers, tokens) {
  const problems = [];
  let checked = 0;
  for (const server of servers) {
    for (const test of cases(tokens)) {
      if (server.kind === 'echo' && !test.echo) continue;
      const response = await fetch(`${server.url}/plants`, {
        method: 'POST',
        headers: test.headers,
        body: test.body,
      });
      const text = await response.text();
      checked += 1;
      if (response.status !== test.status) {
        problems.push(
          `${server.id}: ${test.name}: status ${response.status}, expected ${test.status}`,
        );
        continue;
      }
      if (test.expect === undefined) continue;
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const type = response.headers.get('content-type') ?? '';
      if (
        !type.startsWith('application/json') ||
        body === undefined ||
        !sameJson(body, test.expect)
      ) {
        problems.push(
          `${server.id}: ${test.name}: answered ${type} ${text}, expected ${JSON.stringify(test.expect)}`,
        );
      }
    }
  }
  if (problems.length > 0) {
    throw new Error(`The servers do not give the same answers:\n  ${problems.join('\n  ')}`);
  }
  return checked;
}
