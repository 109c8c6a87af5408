import { BadRequestException, Body, Controller, Get, HttpCode, Post } from '@nestjs/common';

/** The host's own catalogue, served by its own `GET /api/plants`. */
const catalogue = [
  { name: 'Monstera', tag: 'aroid' },
  { name: 'Boston fern', tag: 'fern' },
];

/** The app's own routes beside the plants route, parsed and answered by Nest as usual. */
@Controller('api')
export class GardenController {
  @Get('plants')
  list(): typeof catalogue {
    return catalogue;
  }

  @Post('feedback')
  @HttpCode(202)
  feedback(@Body() body: unknown): { received: true } {
    const { message } = (body ?? {}) as { message?: unknown };
    if (typeof message !== 'string') throw new BadRequestException('Send {"message": "…"}.');
    return { received: true };
  }
}
