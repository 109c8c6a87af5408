// The recipe for NestJS (docs/hosts/nestjs.md, "Your other routes"): a guard for `@UseGuards` and a
// parameter decorator, over the Express and Fastify adapters' own guards. A recipe and not a
// package: it is 60 lines of Nest glue over two published guards, its one choice (how the service
// is injected: here the PLANT_SERVICE token) is the app's, and a package would pin @nestjs/* majors.
import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
  mixin,
  type Type,
} from '@nestjs/common';
import type { GuardOptions, PlantService, Principal } from '@plantstore/core';
import { guard as expressGuard } from '@plantstore/express';
import { guard as fastifyGuard } from '@plantstore/fastify';
import type { Request, Response } from 'express';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PLANT_SERVICE } from './tokens';

/**
 * A Nest guard class protecting a controller or a handler with the plants route's own auth, on the
 * Express or the Fastify platform: `@UseGuards(PlantsAuth({ requiredScopes: ['things:read'] }))`.
 * A refusal is answered by the adapter's guard, exactly as the route answers it (401 with its
 * challenge, 403, 503 with `Retry-After`); Nest then finds the answer sent and adds nothing.
 *
 * @param options - the route's scopes and claims
 * @returns the guard class, its service injected under {@link PLANT_SERVICE}
 */
export function PlantsAuth(options?: GuardOptions): Type<CanActivate> {
  @Injectable()
  class PlantsAuthGuard implements CanActivate {
    private readonly onExpress: ReturnType<typeof expressGuard>;
    private readonly onFastify: ReturnType<typeof fastifyGuard>;

    constructor(@Inject(PLANT_SERVICE) plants: PlantService) {
      this.onExpress = expressGuard(plants, options);
      this.onFastify = fastifyGuard(plants, options);
    }

    async canActivate(context: ExecutionContext): Promise<boolean> {
      const http = context.switchToHttp();
      const reply = http.getResponse<Response | FastifyReply>();
      if ('raw' in reply) {
        await this.onFastify(http.getRequest<FastifyRequest>(), reply);
        return !reply.sent;
      }
      const res = reply;
      return new Promise<boolean>((resolve, reject) => {
        // The adapter's guard either answers (a refusal) or calls next (the principal on req.auth).
        const refused = () => resolve(false);
        res.once('finish', refused);
        this.onExpress(http.getRequest<Request>(), res, (error?: unknown) => {
          res.off('finish', refused);
          if (error === undefined) resolve(true);
          else
            reject(
              error instanceof Error ? error : new Error('the guard failed', { cause: error }),
            );
        });
      });
    }
  }
  return mixin(PlantsAuthGuard);
}

/** The principal a {@link PlantsAuth} guard verified: `handler(@Auth() auth: Principal)`. */
export const Auth = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal | undefined =>
    context.switchToHttp().getRequest<{ auth?: Principal }>().auth,
);
