import { BusController, Handles } from '@cinetrace/bus';
import { ModelPricesGetRequest, ModelPricesPutRequest, Patterns } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { ModelPricesService } from './model-prices.service';

/** Bus adapter for the project's model prices. */
@BusController()
export class ModelPricesBusController {
  constructor(private readonly prices: ModelPricesService) {}

  @Handles(Patterns.ModelPricesGet)
  get(@Payload() request: ModelPricesGetRequest) {
    return this.prices.get(request);
  }

  @Handles(Patterns.ModelPricesPut)
  put(@Payload() request: ModelPricesPutRequest) {
    return this.prices.put(request);
  }
}
