import { describe, it, type TestContext } from 'vitest';
import { CASE_TAGS, type CaseTag } from './case-tags';

export { CASE_TAGS, type CaseTag } from './case-tags';

/**
 * Which of the contract's cases one run of it registers, and which the host decides itself.
 *
 * @example
 * ```ts
 * // A second mounting of a framework already run in full: only what a mounting can change.
 * const coverage: HostCoverage = { only: ['mounting'] };
 * // A runtime whose own server owns the connection.
 * const bun: HostCoverage = { decides: { 'raw-socket': "Bun's server reads and closes it" } };
 * ```
 */
export interface HostCoverage {
  /** Register only the cases with one of these tags. Default every case: the run in full. */
  readonly only?: readonly CaseTag[];
  /**
   * The cases the host decides before the route, by tag or by case id, each with the reason; they
   * are registered and skipped with it. A key that is no tag, and in a full run names no case either,
   * fails the run: no silent typo.
   */
  readonly decides?: Readonly<Record<string, string>>;
}

/** The body of a contract case: a vitest test function. */
export type CaseBody = (context: TestContext) => Promise<void> | void;

/** Registers one case of the contract under its stable id, for the run's {@link HostCoverage}. */
export type RegisterCase = (
  id: string,
  tags: readonly CaseTag[],
  title: string,
  body: CaseBody,
) => void;

/**
 * Registers a group of cases as one `describe`, when the run covers any of `tags`: each case of the
 * group must carry only tags the group declares (checked as it registers), so a group left out
 * holds no case the run covers, and its hooks (the hosts it starts) never run.
 */
export type RegisterGroup = (title: string, tags: readonly CaseTag[], body: () => void) => void;

/** What a contract's case files register through: cases, and groups of cases. */
export interface CaseRegistrar {
  readonly test: RegisterCase;
  readonly group: RegisterGroup;
  /**
   * Fails on a `decides` key that is no tag and, in a full run, matched no case. Call it in a
   * `beforeAll`: nested suites register their cases after their parent's callback has returned.
   */
  readonly verify: () => void;
}

/** A tag of {@link CASE_TAGS}, as a `decides` key. */
const isTag = (key: string): key is CaseTag => key in CASE_TAGS;

/**
 * Makes the registrar of one run: each case is registered as `[id] title` with its tags, skipped
 * with the host's reason when the host decides it, and left out when the run covers none of its
 * tags; a group whose tags the run does not cover is left out whole.
 *
 * @param coverage - the run's coverage
 * @returns the registrar
 * @example
 * ```ts
 * const { test, group } = caseRegistrar({ only: ['mounting'] });
 * group('other requests', ['mounting'], () => {
 *   test('mounting.other-paths', ['mounting'], 'leaves other paths to the host', async () => {});
 * });
 * ```
 */
export function caseRegistrar(coverage: HostCoverage = {}): CaseRegistrar {
  const decides = coverage.decides ?? {};
  const unmatched = new Set(Object.keys(decides));
  const covers = (tags: readonly CaseTag[]) =>
    coverage.only === undefined || tags.some((tag) => coverage.only?.includes(tag));
  let current: { readonly title: string; readonly tags: readonly CaseTag[] } | undefined;

  const test: RegisterCase = (id, tags, title, body) => {
    const stray = tags.filter((tag) => current !== undefined && !current.tags.includes(tag));
    if (stray.length > 0) {
      throw new Error(
        `Case ${id} is tagged ${stray.join(', ')}, which its group "${current?.title}" does not declare.`,
      );
    }
    const keys = [id, ...tags].filter((key) => key in decides);
    for (const key of keys) unmatched.delete(key);
    if (!covers(tags)) return;
    const name = `[${id}] ${title}`;
    const reason = keys.length === 0 ? undefined : decides[keys[0] ?? ''];
    if (reason === undefined) {
      it(name, { tags: [...tags] }, body);
      return;
    }
    it(name, { tags: [...tags] }, (context) => {
      context.skip(`decided before the route: ${reason}`);
    });
  };

  const group: RegisterGroup = (title, tags, body) => {
    if (!covers(tags)) return;
    describe(title, () => {
      const outer = current;
      current = { title, tags };
      try {
        body();
      } finally {
        current = outer;
      }
    });
  };

  return {
    test,
    group,
    verify() {
      // A tag is checked against the list; a case id only in a full run, since a run of some tags
      // never offers the cases of the groups it leaves out.
      const unknown = [...unmatched].filter((key) => !isTag(key) && coverage.only === undefined);
      if (unknown.length > 0) {
        throw new Error(`The host decides cases that do not exist: ${unknown.join(', ')}.`);
      }
    },
  };
}
