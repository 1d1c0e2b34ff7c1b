import { BusController, Handles } from '@cinetrace/bus';
import {
  OrgContext,
  Patterns,
  SealedCreateSecretInput,
  SealedRotateSecretInput,
  SecretActivityRequest,
  SecretListRequest,
  SecretRequest,
  SecretReferencesRecordRequest,
  SecretResolveRequest,
  SecretUsesCheckRequest,
} from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { SecretReferencesService } from './secret-references.service';
import { SecretReleaseService } from './secret-release.service';
import { SecretsService } from './secrets.service';

/** Bus adapter for secrets: unpacks the message, calls the service. */
@BusController()
export class SecretsBusController {
  constructor(
    private readonly secrets: SecretsService,
    private readonly release: SecretReleaseService,
    private readonly references: SecretReferencesService,
  ) {}

  @Handles(Patterns.SecretCreate)
  create(@Payload('ctx') ctx: OrgContext, @Payload('input') input: SealedCreateSecretInput) {
    return this.secrets.create(ctx, input);
  }

  @Handles(Patterns.SecretList)
  list(@Payload() request: SecretListRequest) {
    return this.secrets.list(request.ctx, request.filters, request.page);
  }

  @Handles(Patterns.SecretRotate)
  rotate(@Payload('ctx') ctx: OrgContext, @Payload('id') id: string, @Payload('input') input: SealedRotateSecretInput) {
    return this.secrets.rotate(ctx, id, input);
  }

  @Handles(Patterns.SecretDelete)
  async delete(@Payload() request: SecretRequest) {
    await this.secrets.delete(request.ctx, request.id);
    return { id: request.id, deleted: true as const };
  }

  @Handles(Patterns.SecretIntakeKey)
  intakeKey() {
    return this.secrets.intakeKey();
  }

  @Handles(Patterns.SecretActivity)
  activity(@Payload() request: SecretActivityRequest) {
    return this.secrets.activity(request.ctx, request.id, request.page);
  }

  @Handles(Patterns.SecretUsesCheck)
  checkUses(@Payload() request: SecretUsesCheckRequest) {
    return this.release.checkUses(request.ctx, Array.isArray(request.uses) ? request.uses : []);
  }

  @Handles(Patterns.SecretResolve)
  resolve(@Payload() request: SecretResolveRequest) {
    return this.release.resolve(request);
  }

  @Handles(Patterns.SecretReferencesRecord)
  recordReferences(@Payload() request: SecretReferencesRecordRequest) {
    return this.references.record(request);
  }
}
