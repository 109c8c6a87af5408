import { describe, expect, it } from 'vitest';
import { checkKnownOptions } from './check-options';
import { closestName } from './closest-name';

const SERVICE = ['store', 'auth', 'basePath', 'bodyLimit', 'bodyTimeout', 'storeTimeout', 'realm'];

// Each misspelling with the name it meant: one edit of each kind, two edits, and case alone.
const MEANT: Readonly<Record<string, string>> = {
  storeTimout: 'storeTimeout', // a letter missing
  bodyLimitt: 'bodyLimit', // a letter too many
  bodyLimot: 'bodyLimit', // a letter wrong
  raelm: 'realm', // two neighbours swapped
  storTimout: 'storeTimeout', // two edits
  BODYTIMEOUT: 'bodyTimeout', // case alone, however far
  basepath: 'basePath',
};

describe('closestName', () => {
  it('suggests the name a typo of up to two edits, or of case, meant', () => {
    for (const [name, meant] of Object.entries(MEANT)) {
      expect(closestName(name, SERVICE), name).toBe(meant);
    }
  });

  it('suggests nothing for three edits, another word or an empty name', () => {
    for (const name of ['stTimout', 'timeout', '']) {
      expect(closestName(name, SERVICE), name).toBeUndefined();
    }
  });

  it('prefers the fewest edits, then the first listed', () => {
    expect(closestName('bodyTimeot', ['bodyTimeout', 'bodyTimeouts'])).toBe('bodyTimeout');
    expect(closestName('ab', ['ax', 'ay'])).toBe('ax');
  });
});

describe('checkKnownOptions', () => {
  const known = new Set(SERVICE);

  it('names the closest known option, with the enclosing option, in the TypeError', () => {
    expect(() => checkKnownOptions('Plantstore', { store: 1, storeTimout: 5 }, known)).toThrow(
      new TypeError('Plantstore: unknown option "storeTimout" (did you mean "storeTimeout"?)'),
    );
    expect(() => checkKnownOptions('jwtBearer', { raelm: 'x' }, known, 'dpop.')).toThrow(
      new TypeError('jwtBearer: unknown option "dpop.raelm" (did you mean "dpop.realm"?)'),
    );
  });

  it('names no option when none is close', () => {
    expect(() => checkKnownOptions('Plantstore', { timeout: 5 }, known)).toThrow(
      new TypeError('Plantstore: unknown option "timeout"'),
    );
  });
});
