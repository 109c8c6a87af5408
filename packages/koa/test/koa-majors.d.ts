// Both Koa majors are installed side by side through npm aliases; both are typed by @types/koa.
declare module 'koa2' {
  import Koa from 'koa';
  export default Koa;
}

declare module 'koa3' {
  import Koa from 'koa';
  export default Koa;
}
