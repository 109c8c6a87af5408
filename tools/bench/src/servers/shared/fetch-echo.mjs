// Floor on Bun and Deno: the runtime's server parsing the body with `request.json()` and answering
// the plant back. Nothing else.
import { serveFetch } from './fetch-serve.mjs';

serveFetch(async (request) => {
  if (request.method !== 'POST' || new URL(request.url).pathname !== '/plants') {
    return new Response(null, { status: 404 });
  }
  let plant;
  try {
    plant = await request.json();
  } catch {
    return new Response(null, { status: 400 });
  }
  return Response.json({ name: plant.name, tag: plant.tag });
});
