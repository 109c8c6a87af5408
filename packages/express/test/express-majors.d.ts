// Both majors are installed under aliases (npm:express@4, npm:express@5) and typed with the one
// @types/express the package uses: the tests touch only API the two majors share.
declare module 'express4' {
  import express from 'express';
  export default express;
}

declare module 'express5' {
  import express from 'express';
  export default express;
}
