import { catalogue } from '@example/catalogue';
import { lazyPlantService } from '@example/plants';

// Node.js runtime (the default). Next.js hands a route handler the request unread, so the route reads
// the body itself: exact int64 ids, its own size and time limits.
const plants = lazyPlantService('/api');

export function POST(request: Request): Promise<Response> {
  return plants().fetch(request);
}

/** The app's own route on the same path: the plants route answers only POST. */
export function GET(): Response {
  return Response.json(catalogue);
}
