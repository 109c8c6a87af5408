/**
 * The app's own 404, in the JSON shape of its API.
 *
 * @param request - the request no route answers
 * @returns `404 {"error":404,"message":"Nothing at GET /nowhere."}`
 */
export function notFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return Response.json(
    { error: 404, message: `Nothing at ${request.method} ${pathname}.` },
    { status: 404 },
  );
}
