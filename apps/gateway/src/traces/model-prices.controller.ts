import { BusClient } from '@cinetrace/bus';
import { ModelPriceListView, Patterns, ProjectContext, type ModelPricesGetRequest, type ModelPricesPutRequest } from '@cinetrace/contracts';
import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Caller } from '../auth/caller';

/**
 * /api/v1/model-prices: the project's price table, by which trace-ingest costs the spans
 * whose client sent no cost. Thin: trace-ingest validates a PUT and keeps the table.
 */
@ApiTags('Traces')
@Controller('api/v1/model-prices')
export class ModelPricesController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @ApiOperation({ operationId: 'listModelPrices', summary: "The project's model prices, then the defaults shipped with the service; one page" })
  @ApiResponse({ status: 200, type: ModelPriceListView })
  list(@Caller() ctx: ProjectContext): Promise<ModelPriceListView> {
    return this.bus.request(Patterns.ModelPricesGet, { ctx } satisfies ModelPricesGetRequest);
  }

  @Put()
  @ApiOperation({
    operationId: 'replaceModelPrices',
    summary: "Replace the project's model prices (they win over the defaults); spans stored from then on are priced by them",
  })
  @ApiBody({ schema: { $ref: '#/components/schemas/ModelPricesInput' } })
  @ApiResponse({ status: 200, type: ModelPriceListView, description: "The project's entries, as stored" })
  replace(@Caller() ctx: ProjectContext, @Body() input: unknown): Promise<ModelPriceListView> {
    // trace-ingest validates it, naming every offending field.
    return this.bus.request(Patterns.ModelPricesPut, { ctx, input } satisfies ModelPricesPutRequest);
  }
}
