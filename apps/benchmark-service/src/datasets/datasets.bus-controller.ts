import { BusController, Handles } from '@cinetrace/bus';
import { AddDatasetItemsInput, CreateDatasetInput, DatasetItemsRequest, DatasetListRequest, DatasetRequest, Patterns, ProjectContext } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { DatasetsService } from './datasets.service';

/** Bus adapter for datasets: unpacks the message, calls the service. */
@BusController()
export class DatasetsBusController {
  constructor(private readonly datasets: DatasetsService) {}

  @Handles(Patterns.DatasetCreate)
  create(@Payload('ctx') ctx: ProjectContext, @Payload('input') input: CreateDatasetInput) {
    return this.datasets.create(ctx, input);
  }

  @Handles(Patterns.DatasetItemsAdd)
  addItems(@Payload() request: Omit<DatasetRequest, never>, @Payload('input') input: AddDatasetItemsInput) {
    return this.datasets.addItems(request.ctx, request.id, input);
  }

  @Handles(Patterns.DatasetList)
  list(@Payload() request: DatasetListRequest) {
    return this.datasets.list(request.ctx, request.filters, request.page);
  }

  @Handles(Patterns.DatasetGet)
  get(@Payload() request: DatasetRequest) {
    return this.datasets.get(request.ctx, request.id);
  }

  @Handles(Patterns.DatasetItems)
  items(@Payload() request: DatasetItemsRequest) {
    return this.datasets.items(request.ctx, request.id, request.page);
  }

  @Handles(Patterns.DatasetDelete)
  delete(@Payload() request: DatasetRequest) {
    return this.datasets.delete(request.ctx, request.id);
  }
}
