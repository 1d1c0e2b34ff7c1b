import { BusController, Handles } from '@cinetrace/bus';
import { ApiKeyCreateRequest, ApiKeyListRequest, ApiKeyRevokeRequest, OrganizationCreateRequest, Patterns } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { ApiKeysService } from './api-keys.service';
import { OrganizationsService } from './organizations.service';

/** Bus adapter for organizations and their API keys: unpacks the message, calls the service. */
@BusController()
export class OrganizationsBusController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly organizations: OrganizationsService,
  ) {}

  @Handles(Patterns.ApiKeyCreate)
  createKey(@Payload() request: ApiKeyCreateRequest) {
    return this.apiKeys.create(request.ctx, request.input, request.credential);
  }

  @Handles(Patterns.ApiKeyList)
  listKeys(@Payload() request: ApiKeyListRequest) {
    return this.apiKeys.list(request.ctx, request.page);
  }

  /** Answers with a body, as every pattern does (the gateway's route answers 204). */
  @Handles(Patterns.ApiKeyRevoke)
  async revokeKey(@Payload() request: ApiKeyRevokeRequest) {
    await this.apiKeys.revoke(request.ctx, request.id);
    return { id: request.id, revoked: true as const };
  }

  @Handles(Patterns.OrganizationCreate)
  createOrganization(@Payload() request: OrganizationCreateRequest) {
    return this.organizations.create(request.input, request.credential);
  }
}
