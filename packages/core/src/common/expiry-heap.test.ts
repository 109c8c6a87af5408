import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expiryHeap } from './expiry-heap';

describe('expiryHeap', () => {
  it('gives its keys back earliest expiry first, whatever order they were pushed in', () => {
    const heap = expiryHeap();
    for (const [key, at] of [
      ['c', 30.5],
      ['a', 10.25],
      ['d', 40],
      ['b', 20.125],
    ] as const) {
      heap.push(key, at);
    }
    expect(heap.size).toBe(4);
    const taken: [number, string | undefined][] = [];
    while (heap.size > 0) taken.push([heap.earliest(), heap.pop()]);
    expect(taken).toEqual([
      [10.25, 'a'],
      [20.125, 'b'],
      [30.5, 'c'],
      [40, 'd'],
    ]);
    expect(heap.earliest()).toBe(Number.POSITIVE_INFINITY);
    expect(heap.pop()).toBeUndefined();
  });

  it('drops every entry on clear()', () => {
    const heap = expiryHeap();
    heap.push('a', 1);
    heap.push('b', 2);
    heap.clear();
    expect(heap.size).toBe(0);
    expect(heap.earliest()).toBe(Number.POSITIVE_INFINITY);
    heap.push('c', 3);
    expect([heap.earliest(), heap.pop(), heap.size]).toEqual([3, 'c', 0]);
  });

  it('pops as a sorted list does, under any mix of pushes and pops (fast-check)', () => {
    const step = fc.oneof(
      fc.record({ push: fc.integer({ min: 0, max: 50 }), key: fc.string({ maxLength: 3 }) }),
      fc.constant('pop' as const),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const heap = expiryHeap();
        const model: { at: number; key: string }[] = [];
        for (const next of steps) {
          if (next === 'pop') {
            const earliest = model[0];
            expect(heap.earliest()).toBe(earliest?.at ?? Number.POSITIVE_INFINITY);
            const key = heap.pop();
            if (earliest === undefined) expect(key).toBeUndefined();
            else {
              // Of equal expiries any may come first: the key must be one of theirs.
              const index = model.findIndex(
                (entry) => entry.at === earliest.at && entry.key === key,
              );
              expect(index).not.toBe(-1);
              model.splice(index, 1);
            }
          } else {
            heap.push(next.key, next.push);
            model.push({ at: next.push, key: next.key });
            model.sort((a, b) => a.at - b.at);
          }
          expect(heap.size).toBe(model.length);
        }
      }),
      { numRuns: 500 },
    );
  });
});
