import { lazyPlantService } from '@example/plants';

// The same route on the Edge runtime: no Node.js built-ins, which the core's fetch entry does not need.
export const runtime = 'edge';

const plants = lazyPlantService('/edge/api');

export function POST(request: Request): Promise<Response> {
  return plants().fetch(request);
}
