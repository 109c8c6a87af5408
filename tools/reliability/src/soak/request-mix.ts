import type { Exchange, SentPlant } from '../check/nothing-lost';
import { plantBody } from '@plantstore/http-suite/client';
import { exactName, spreadId } from '../scenario/exact-plants';

/** The kinds of request the soak sends, each with the status the contract gives it. */
export const REQUEST_KINDS = {
  create: 200,
  replay: 200,
  conflict: 409,
  'no-token': 401,
  'bad-signature': 401,
  expired: 401,
  'unknown-key': 401,
  'bad-json': 400,
  schema: 400,
  'media-type': 415,
  compressed: 415,
  'too-large': 413,
} as const;

/** A kind of request of the soak. */
export type RequestKind = keyof typeof REQUEST_KINDS;

/** How often each kind is sent, relative to the others. */
export const DEFAULT_WEIGHTS: Readonly<Record<RequestKind, number>> = {
  create: 45,
  replay: 15,
  conflict: 10,
  'no-token': 4,
  'bad-signature': 4,
  expired: 3,
  'unknown-key': 2,
  'bad-json': 5,
  schema: 5,
  'media-type': 4,
  compressed: 1,
  'too-large': 2,
};

/** Tokens the mix sends: several valid ones (the verified-token cache sees them all) and bad ones. */
export interface MixTokens {
  readonly valid: readonly string[];
  /** A token of the published key whose signature was altered. */
  readonly badSignature: string;
  readonly expired: string;
  /** Signed by a key the JWKS never published. */
  readonly unknownKey: string;
}

/** One request, planned with the status it must get. */
export interface PlannedRequest {
  readonly kind: RequestKind;
  readonly expected: number;
  readonly plant: SentPlant;
  readonly refused: boolean;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A tiny seeded generator, so that a run can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const JSON_TYPE = 'application/json';

/**
 * Plans the soak's requests: fresh creates, replays and conflicts of plants already confirmed by a
 * 200 (so their expected answer is certain), and requests the contract refuses, whose ids come from
 * a separate id space and must never reach the table.
 */
export class RequestMix {
  private readonly next01: () => number;
  private readonly kinds: RequestKind[] = [];
  private readonly confirmed: SentPlant[] = [];
  private created = 0;
  private refusedCount = 0;

  /**
   * @param space - the id space of this mix (one per adapter), below 500
   * @param tokens - the tokens to send
   * @param seed - the generator's seed
   * @param weights - how often each kind is sent
   */
  constructor(
    private readonly space: number,
    private readonly tokens: MixTokens,
    seed: number,
    weights: Readonly<Record<RequestKind, number>> = DEFAULT_WEIGHTS,
  ) {
    this.next01 = random(seed);
    for (const [kind, weight] of Object.entries(weights) as [RequestKind, number][]) {
      for (let index = 0; index < weight; index += 1) this.kinds.push(kind);
    }
  }

  /** The Authorization field each create was sent with, for its replays. */
  private readonly creators = new WeakMap<SentPlant, string>();

  /** Marks a create as answered 200: it may be replayed or contradicted from now on. */
  confirm(plant: SentPlant): void {
    this.confirmed.push(plant);
  }

  /** Plans the next request. */
  next(): PlannedRequest {
    let kind = this.kinds[Math.floor(this.next01() * this.kinds.length)] as RequestKind;
    if ((kind === 'replay' || kind === 'conflict') && this.confirmed.length === 0) kind = 'create';
    const token = this.tokens.valid[Math.floor(this.next01() * this.tokens.valid.length)] as string;
    const json = { authorization: `Bearer ${token}`, 'content-type': JSON_TYPE };
    const plan = (
      plant: SentPlant,
      headers: Record<string, string>,
      body = plantBody(plant),
    ): PlannedRequest => ({
      kind,
      expected: REQUEST_KINDS[kind],
      plant,
      refused: REQUEST_KINDS[kind] !== 200 && REQUEST_KINDS[kind] !== 409,
      headers,
      body,
    });
    if (kind === 'create') {
      const plant = this.freshPlant();
      this.creators.set(plant, json.authorization);
      return plan(plant, json);
    }
    if (kind === 'replay') {
      const plant = this.pick();
      // A replay is its creator's retry (#49: another caller's identical create is a conflict), so
      // it carries the token the create was sent with.
      const own = { ...json, authorization: this.creators.get(plant) ?? json.authorization };
      // Every other replay spells the same plant otherwise: keys reordered, an ignored field, `.0`.
      return this.next01() < 0.5 ? plan(plant, own) : plan(plant, own, respelled(plant));
    }
    if (kind === 'conflict') {
      const stored = this.pick();
      const other =
        this.next01() < 0.5
          ? { ...stored, name: `${stored.name}!` }
          : { ...stored, tag: stored.tag === undefined ? 'added' : undefined };
      return plan(other, json);
    }
    const plant = this.refusedPlant();
    const body = plantBody(plant);
    const typed = { 'content-type': JSON_TYPE };
    switch (kind) {
      case 'no-token':
        return plan(plant, typed);
      case 'bad-signature':
        return plan(plant, { ...json, authorization: `Bearer ${this.tokens.badSignature}` });
      case 'expired':
        return plan(plant, { ...json, authorization: `Bearer ${this.tokens.expired}` });
      case 'unknown-key':
        return plan(plant, { ...json, authorization: `Bearer ${this.tokens.unknownKey}` });
      case 'bad-json':
        return plan(plant, json, body.slice(0, -1));
      case 'schema':
        return plan(
          plant,
          json,
          `{"id":"${plant.id}","name":${JSON.stringify(plant.name)},"tag":null}`,
        );
      case 'media-type':
        return plan(plant, { ...json, 'content-type': 'text/plain' });
      case 'compressed':
        return plan(plant, { ...json, 'content-encoding': 'gzip' });
      default:
        return plan(plant, json, `${body.slice(0, -1)},"pad":"${'x'.repeat(17 * 1024)}"}`);
    }
  }

  private pick(): SentPlant {
    return this.confirmed[Math.floor(this.next01() * this.confirmed.length)] as SentPlant;
  }

  private freshPlant(): SentPlant {
    const index = (this.created += 1);
    const name = exactName(`soak ${this.space}/${index}`);
    const tag = index % 3 === 0 ? undefined : index % 3 === 1 ? ' aroid ' : 'épiphyte';
    return { id: spreadId(this.space, index), name, tag };
  }

  private refusedPlant(): SentPlant {
    this.refusedCount += 1;
    return { id: spreadId(this.space + 500, this.refusedCount), name: exactName('refused') };
  }
}

function respelled(plant: SentPlant): string {
  const tag = plant.tag === undefined ? '' : `"tag" : ${JSON.stringify(plant.tag)}, `;
  return `{ "extra": [1, {"x": null}], ${tag}"name": ${JSON.stringify(plant.name)}, "id": ${plant.id}.0 }`;
}

/**
 * Builds the exchange the invariant check reads, from a request and its final answer. The body of
 * a 200 is kept only when it is not the plant that was sent, so that a long run stays small.
 */
export function exchangeOf(
  request: PlannedRequest,
  final: Exchange['final'],
  body: string | undefined,
): Exchange {
  const wrong = final === 200 && body !== undefined && body !== answerOf(request.plant);
  return {
    plant: request.plant,
    final,
    body: wrong ? body : undefined,
    refused: request.refused,
    expected: [request.expected],
  };
}

function answerOf(plant: SentPlant): string {
  return plant.tag === undefined
    ? JSON.stringify({ name: plant.name })
    : JSON.stringify({ name: plant.name, tag: plant.tag });
}
