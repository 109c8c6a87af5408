/** One answer as a Koa host's upstream middleware saw it. */
export interface ObservedAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly type: string;
}

/** Where a host app reports what reached it besides the route's own answers. */
export interface HostHooks {
  /** Each error the host's own error handling saw: Express's error middleware, Koa's `app.on('error')`. */
  readonly onHostError?: (error: unknown) => void;
  /** Each request the route passed on to the host's catch-all, as `METHOD path`. */
  readonly onPassedOn?: (request: string) => void;
  /** Each answer, as a Koa host's upstream middleware observed it. */
  readonly onAnswer?: (answer: ObservedAnswer) => void;
}

/** What a host app saw, kept in arrays. */
export interface HostRecord {
  readonly errors: unknown[];
  readonly passedOn: string[];
  readonly observed: ObservedAnswer[];
  /** The hooks that fill the arrays, for a host app. */
  readonly hooks: HostHooks;
}

/**
 * Hooks that keep everything a host app reports.
 *
 * @returns an empty record and its hooks
 * @example
 * const record = hostRecord();
 * const app = expressHostApp(express5, plantRouter(options), { hooks: record.hooks });
 */
export function hostRecord(): HostRecord {
  const errors: unknown[] = [];
  const passedOn: string[] = [];
  const observed: ObservedAnswer[] = [];
  return {
    errors,
    passedOn,
    observed,
    hooks: {
      onHostError: (error) => void errors.push(error),
      onPassedOn: (request) => void passedOn.push(request),
      onAnswer: (answer) => void observed.push(answer),
    },
  };
}
