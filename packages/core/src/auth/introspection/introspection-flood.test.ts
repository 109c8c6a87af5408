import { describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../../plant/memory-store';
import { createPlantService } from '../../service/service';
import { tokenIntrospection } from './token-introspection';
import { optionsFor, useIntrospectionEndpoint } from './introspection-endpoint.test-support';

const endpoint = useIntrospectionEndpoint();
const JUNK = 500;
// The default of maxConcurrentCalls.
const BOUND = 16;

function create(
  service: { fetch(request: Request): Promise<Response> },
  token: string,
  id: number,
) {
  return service
    .fetch(
      new Request('http://plants.test/plants', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id, name: 'Fern' }),
      }),
    )
    .then(async (response) => {
      await response.body?.cancel();
      return `${response.status} ${response.headers.get('retry-after') ?? '-'}`;
    });
}

describe('tokenIntrospection under a flood of junk tokens', () => {
  it('keeps at most maxConcurrentCalls (16) calls in flight, answers the rest 503, and serves a cached token', async () => {
    endpoint().answers.set('legit', { sub: 'alice', aud: 'plants', exp: Date.now() / 1000 + 3600 });
    const plants = createPlantService({
      store: memoryStore(),
      auth: tokenIntrospection(optionsFor(endpoint(), { audience: 'plants' })),
      logger: false,
    });
    expect(await create(plants, 'legit', 1)).toBe('200 -');

    const release = endpoint().hold();
    const flood = Array.from({ length: JUNK }, (_, index) =>
      create(plants, `junk-${index}`, index + 10),
    );
    // 500 requests take a while to reach the endpoint on a busy machine: vi.waitFor's 1 s default is
    // a time limit only a quiet machine meets.
    await vi.waitFor(() => expect(endpoint().requests).toHaveLength(1 + BOUND), {
      timeout: 15_000,
    });
    // The provider is busy with the first junk tokens: the cached client is not held up by them.
    expect(await create(plants, 'legit', 2)).toBe('200 -');
    release();
    const answers = await Promise.all(flood);
    const counted = Object.fromEntries(
      [...new Set(answers)].map((answer) => [answer, answers.filter((a) => a === answer).length]),
    );
    expect(counted).toStrictEqual({ '401 -': BOUND, '503 1': JUNK - BOUND });
    expect(endpoint().requests).toHaveLength(1 + BOUND);
  });
});
