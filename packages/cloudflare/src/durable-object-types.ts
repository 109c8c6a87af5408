// The parts of Cloudflare's Durable Objects API this package uses, as structural types: the
// bindings and state of @cloudflare/workers-types (or wrangler's generated types) fit them, and a
// user need not install those types for this package's to resolve.

/** A stub of one Durable Object, `DurableObjectStub` in @cloudflare/workers-types. */
export interface DurableObjectStubLike {
  fetch(
    input: string,
    init: {
      readonly method: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
    },
  ): Promise<Response>;
}

/** A Durable Object namespace binding (`env.REPLAY`), `DurableObjectNamespace`. */
export interface DurableObjectNamespaceLike<Id = unknown> {
  idFromName(name: string): Id;
  get(id: Id): DurableObjectStubLike;
}

/** A Durable Object's transactional storage, `DurableObjectStorage` (its key-value API). */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(keys: string[]): Promise<number>;
  list<T = unknown>(options?: {
    readonly start?: string;
    readonly limit?: number;
  }): Promise<Map<string, T>>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** What a Durable Object's constructor is given first, `DurableObjectState`. */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike;
}
