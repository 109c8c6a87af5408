// Workaround, to delete once the core's nodeBuiltin() catches (reported with issue #40): Next.js's
// Edge sandbox (`next start`, `next dev`, and `next build` collecting the route's configuration) stands
// a function that throws in for every `process` method of Node.js, `process.getBuiltinModule`
// included, where the core expects it missing; the core's module-level probe for node:crypto then
// throws and the route file cannot load. A stand-in that finds no built-in is what the Edge runtime
// means. Import this module before anything that imports the core.
const edgeProcess = (globalThis as { process?: { getBuiltinModule?: unknown } }).process;
if (edgeProcess !== undefined && globalThis.EdgeRuntime !== undefined) {
  edgeProcess.getBuiltinModule = () => undefined;
}

declare global {
  /** Set by Next.js's Edge runtime, and only there. */
  var EdgeRuntime: string | undefined;
}

export {};
