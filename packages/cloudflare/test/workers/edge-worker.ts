import worker from './secret-worker';

// The same Worker for Vercel's Edge runtime (`edge-runtime` on npm), which runs a script with a
// `fetch` event listener instead of a module's default export. Its settings are the global
// PLANTSTORE_ENV the test puts in the runtime's context.
interface FetchEventLike {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}

const scope = globalThis as unknown as {
  readonly PLANTSTORE_ENV: Parameters<typeof worker.fetch>[1];
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
};

scope.addEventListener('fetch', (event) => {
  event.respondWith(worker.fetch(event.request, scope.PLANTSTORE_ENV));
});
