// Both majors are installed under aliases (npm:fastify@4, npm:fastify@5) and typed with the one
// `fastify` the package builds against: the tests touch only API the two majors share.
declare module 'fastify4' {
  import Fastify from 'fastify';
  export default Fastify;
}

declare module 'fastify5' {
  import Fastify from 'fastify';
  export default Fastify;
}
