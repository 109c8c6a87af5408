import { created, type HostileCase, httpCase, refused } from './case';

const mismatch = refused(400, 'schema_mismatch');
const missing = refused(400, 'field_missing');

/** Bodies that are strict JSON objects but not a NewPlant, and the edges of what is one. */
export const schemaCases: readonly HostileCase[] = [
  httpCase('schema', 'an empty object', '{}', missing),
  httpCase('schema', 'no id', '{"name":"a"}', missing),
  httpCase('schema', 'no name', '{"id":11900}', missing),
  httpCase('schema', 'an id that is a string', '{"id":"11901","name":"a"}', mismatch),
  httpCase('schema', 'an id that is true', '{"id":true,"name":"a"}', mismatch),
  httpCase('schema', 'an id that is null', '{"id":null,"name":"a"}', mismatch),
  httpCase('schema', 'an id that is an array', '{"id":[11902],"name":"a"}', mismatch),
  httpCase('schema', 'an id that is an object', '{"id":{"value":11903},"name":"a"}', mismatch),
  httpCase('schema', 'a name that is a number', '{"id":11904,"name":5}', mismatch),
  httpCase('schema', 'a name that is null', '{"id":11905,"name":null}', mismatch),
  httpCase('schema', 'a name that is an array of strings', '{"id":11906,"name":["a"]}', mismatch),
  httpCase('schema', 'a name that is an object', '{"id":11907,"name":{}}', mismatch),
  httpCase('schema', 'a name that is false', '{"id":11908,"name":false}', mismatch),
  httpCase('schema', 'a tag that is null', '{"id":11909,"name":"a","tag":null}', mismatch),
  httpCase('schema', 'a tag that is a number', '{"id":11910,"name":"a","tag":1}', mismatch),
  httpCase('schema', 'a tag that is an array', '{"id":11911,"name":"a","tag":[]}', mismatch),
  httpCase(
    'schema',
    'every field wrong (the id is reported first)',
    '{"id":1.5,"name":5,"tag":null}',
    refused(400, 'id_not_integer'),
  ),
  httpCase(
    'schema',
    'a missing id and a wrong name (the id is reported first)',
    '{"name":5}',
    missing,
  ),
  httpCase('schema', 'an empty name', '{"id":11001,"name":""}', created(11001n, '')),
  httpCase('schema', 'an empty tag', '{"id":11002,"name":"a","tag":""}', created(11002n, 'a', '')),
  httpCase(
    'schema',
    'a name with surrounding spaces, not trimmed',
    '{"id":11003,"name":"  a  "}',
    created(11003n, '  a  '),
  ),
  httpCase(
    'schema',
    'a name of 10,000 characters',
    `{"id":11004,"name":"${'x'.repeat(10_000)}"}`,
    created(11004n, 'x'.repeat(10_000)),
  ),
];
