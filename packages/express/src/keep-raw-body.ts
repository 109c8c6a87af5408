import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlantService } from '@plantstore/core';

/**
 * A `verify` option for the host's body parsers (`express.json()`, `express.text()`, body-parser 1
 * and 2): it keeps the body's bytes on `req.rawBody` for the plants route, so the route reads them
 * with its own strict reader even though the parser ran first.
 */
export type KeepRawBody = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/**
 * Makes the {@link KeepRawBody} of a service. A parser runs before Express strips the route's mount
 * path, and a middleware cannot learn where it is mounted, so the path is tried at every `/`: the
 * bytes are kept when some mount point would make the route claim the request (`POST …/plants`).
 * They are kept by reference, never copied, and nothing is set on any other request.
 *
 * @param service - the route's service, whose `matches` decides
 * @returns the `verify` function
 */
export function rawBodyKeeper(service: PlantService): KeepRawBody {
  return (req, _res, body) => {
    if (req.method !== 'POST') return;
    // Express's own request keeps the whole path in `originalUrl`; `url` loses the mount path.
    const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
    const query = target.indexOf('?');
    const path = query === -1 ? target : target.slice(0, query);
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
      if (service.matches(req.method, path.slice(at))) {
        // Assigned, not cast: other typings (Koa's parsers) declare rawBody as a string.
        Object.assign(req, { rawBody: body });
        return;
      }
    }
  };
}
