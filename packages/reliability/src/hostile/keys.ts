import { created, type HostileCase, httpCase, refused } from './case';

const duplicate = refused(400, 'body_duplicate_key');
const forbidden = refused(400, 'body_forbidden_key');

const manyKeys = (count: number) =>
  Array.from({ length: count }, (_, k) => `"k${k}":${k}`).join(',');

/** Objects with a key twice, however it is spelt: JSON.parse would keep the last one silently. */
const duplicates: readonly [string, string][] = [
  ['the id twice with one value', '{"id":7900,"id":7900,"name":"a"}'],
  ['the id twice with two values', '{"id":7901,"name":"a","id":7902}'],
  ['the name twice', '{"id":7903,"name":"a","name":"b"}'],
  ['the tag twice', '{"id":7904,"name":"a","tag":"x","tag":"y"}'],
  ['the id twice, once escaped', '{"id":7905,"\\u0069d":7906,"name":"a"}'],
  ['the name twice, once partly escaped', '{"id":7907,"name":"a","na\\u006de":"b"}'],
  [
    'the tag twice, once fully escaped',
    '{"id":7908,"name":"a","tag":"x","\\u0074\\u0061\\u0067":"y"}',
  ],
  ['"/" and "\\/"', '{"id":7909,"name":"a","\\/":1,"/":2}'],
  [
    'an emoji key and its escaped surrogate pair',
    '{"id":7910,"name":"a","🌱":1,"\\ud83c\\udf31":2}',
  ],
  ['a key in capitals-escaped hex', '{"id":7911,"name":"a","\\u004B":1,"K":2}'],
  ['a repeated key in a nested object', '{"id":7912,"name":"a","x":{"k":1,"k":2}}'],
  ['a repeated key in an object inside an array', '{"id":7913,"name":"a","x":[{"k":1,"k":1}]}'],
  ['the empty key twice', '{"id":7914,"name":"a","":1,"":2}'],
  ['a repeat after nine distinct keys', `{"id":7915,"name":"a",${manyKeys(9)},"k3":0}`],
  ['a repeat of the first of 300 keys', `{"k0":0,"id":7916,"name":"a",${manyKeys(300)}}`],
  ['the id repeated after an invalid first value', '{"id":"x","name":"a","id":7917}'],
];

/** Keys that look alike but are different strings: no folding, no normalisation. */
const distinct: readonly [string, string, bigint][] = [
  ['"id" and "ID"', '{"id":7001,"ID":2,"name":"Case"}', 7001n],
  ['"é" precomposed and decomposed', '{"id":7002,"name":"Case","\u00e9":1,"e\u0301":2}', 7002n],
  ['"id" and "id " with a space', '{"id":7003,"id ":2,"name":"Case"}', 7003n],
  ['one key in two sibling objects', '{"id":7004,"name":"Case","a":{"k":1},"b":{"k":1}}', 7004n],
  ['one key at two depths', '{"id":7005,"name":"Case","x":{"id":1,"name":2}}', 7005n],
];

/** `__proto__` and `constructor` anywhere, spelt any way: refused. */
const prototypeKeys: readonly [string, string][] = [
  ['__proto__ first', '{"__proto__":{"admin":true},"id":9900,"name":"a"}'],
  ['__proto__ last', '{"id":9901,"name":"a","__proto__":{"admin":true}}'],
  ['__proto__ with null', '{"id":9902,"name":"a","__proto__":null}'],
  ['__proto__ in a nested object', '{"id":9903,"name":"a","x":{"__proto__":{"admin":true}}}'],
  ['__proto__ in an object inside an array', '{"id":9904,"name":"a","x":[{"__proto__":{}}]}'],
  ['__proto__ fully escaped', '{"id":9905,"name":"a","\\u005f\\u005fproto\\u005f\\u005f":{}}'],
  ['__proto__ partly escaped', '{"id":9906,"name":"a","__proto\\u005f_":{}}'],
  ['constructor', '{"id":9907,"name":"a","constructor":{}}'],
  ['constructor.prototype', '{"id":9908,"name":"a","constructor":{"prototype":{"polluted":true}}}'],
  ['constructor escaped', '{"id":9909,"name":"a","constructo\\u0072":{}}'],
  ['constructor deep in arrays', '{"id":9910,"name":"a","x":[[{"constructor":1}]]}'],
  ['__proto__ before a syntax error (first problem wins)', '{"__proto__":1,'],
];

/** Keys near the forbidden ones, and forbidden words as values: accepted, ignored or kept. */
const nearMisses: readonly [string, string, bigint, string][] = [
  ['prototype', '{"id":9001,"name":"Near","prototype":{"x":1}}', 9001n, 'Near'],
  ['__PROTO__', '{"id":9002,"name":"Near","__PROTO__":{}}', 9002n, 'Near'],
  ['Constructor', '{"id":9003,"name":"Near","Constructor":{}}', 9003n, 'Near'],
  ['"__proto__ " with a space', '{"id":9004,"name":"Near","__proto__ ":{}}', 9004n, 'Near'],
  ['_proto_', '{"id":9005,"name":"Near","_proto_":{}}', 9005n, 'Near'],
  ['hasOwnProperty', '{"id":9006,"name":"Near","hasOwnProperty":1}', 9006n, 'Near'],
  ['toString and valueOf', '{"id":9007,"name":"Near","toString":1,"valueOf":2}', 9007n, 'Near'],
  ['__defineGetter__', '{"id":9008,"name":"Near","__defineGetter__":1}', 9008n, 'Near'],
  ['isPrototypeOf', '{"id":9009,"name":"Near","isPrototypeOf":{}}', 9009n, 'Near'],
  ['"__proto__" as the name', '{"id":9010,"name":"__proto__"}', 9010n, '__proto__'],
  ['"constructor" as the name', '{"id":9011,"name":"constructor"}', 9011n, 'constructor'],
];

/** Duplicate keys, however spelt. */
export const duplicateKeyCases: readonly HostileCase[] = [
  ...duplicates.map(([what, text]) => httpCase('duplicate keys', `${what}`, text, duplicate)),
  ...distinct.map(([what, text, id]) =>
    httpCase('duplicate keys', `${what} (not duplicates)`, text, created(id, 'Case')),
  ),
];

/** Prototype keys, and the keys and values that only look like them. */
export const prototypeKeyCases: readonly HostileCase[] = [
  ...prototypeKeys.map(([what, text]) =>
    httpCase('prototype keys', `a key ${what}`, text, forbidden),
  ),
  ...nearMisses.map(([what, text, id, name]) =>
    httpCase('prototype keys', `${what} (not a forbidden key)`, text, created(id, name)),
  ),
];
