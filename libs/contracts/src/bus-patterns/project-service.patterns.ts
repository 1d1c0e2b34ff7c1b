import { CreateApiKeyInput } from '../api-keys/api-key.inputs';
import type { ApiKeyCreateRequest, ApiKeyListKey, ApiKeyListRequest, ApiKeyRevokeRequest } from '../api-keys/api-key.messages';
import type { ApiKeyView, StoredApiKeyView } from '../api-keys/api-key.views';
import type { AuthResolveReply, AuthResolveRequest } from '../auth/auth.messages';
import { nothingToCheck, orgScoped } from './request-shape';
import type { DeletedView } from '../datasets/dataset.views';
import type { Page } from '../lists/page';
import { CreateOrganizationInput } from '../organizations/organization.inputs';
import type { OrganizationCreateRequest } from '../organizations/organization.messages';
import type { StoredOrganizationView } from '../organizations/organization.views';
import type { FactsRecordedReply } from '../prompts/evaluation.messages';
import type { ProjectCreateRequest, ProjectGetRequest, ProjectListKey, ProjectListRequest } from '../projects/project.messages';
import type { ProjectView } from '../projects/project.view';
import type {
  SecretActivityRequest,
  SecretCreateRequest,
  SecretIntakeKeyReply,
  SecretListKey,
  SecretListRequest,
  SecretReferencesRecordRequest,
  SecretRequest,
  SecretResolveReply,
  SecretResolveRequest,
  SecretRotateRequest,
  SecretUsesCheckReply,
  SecretUsesCheckRequest,
} from '../secrets/secret.messages';
import type { SecretActivityView, SecretView } from '../secrets/secret.views';
import { ServiceNames } from '../wire-names';
import { busPattern, pingPattern, type NoRequest } from './bus-pattern';

/** What revoking a key answers (the gateway answers 204). */
export interface RevokedReply {
  id: string;
  revoked: true;
}

const service = ServiceNames.ProjectService;

/** What project-service answers: callers, organizations, projects, API keys and secrets. */
export const projectServicePatterns = {
  ProjectPing: pingPattern('project.ping', service),
  // Not read-only: resolving a key records when it was last used.
  AuthResolve: busPattern<AuthResolveRequest, AuthResolveReply>()({ wire: 'project.auth.resolve', service, readOnly: false, shape: { strings: ['apiKeyHash'] } }),
  ProjectCreate: busPattern<ProjectCreateRequest, ProjectView>()({ wire: 'project.projects.create', service, readOnly: false, shape: orgScoped() }),
  ProjectList: busPattern<ProjectListRequest, Page<ProjectView, ProjectListKey>>()({ wire: 'project.projects.list', service, readOnly: true, shape: orgScoped() }),
  ProjectGet: busPattern<ProjectGetRequest, ProjectView>()({ wire: 'project.projects.get', service, readOnly: true, shape: orgScoped('id') }),
  ApiKeyCreate: busPattern<ApiKeyCreateRequest, StoredApiKeyView>()({
    wire: 'project.apikeys.create',
    service,
    readOnly: false,
    shape: { ...orgScoped(), input: CreateApiKeyInput },
  }),
  ApiKeyList: busPattern<ApiKeyListRequest, Page<ApiKeyView, ApiKeyListKey>>()({ wire: 'project.apikeys.list', service, readOnly: true, shape: orgScoped() }),
  ApiKeyRevoke: busPattern<ApiKeyRevokeRequest, RevokedReply>()({ wire: 'project.apikeys.revoke', service, readOnly: false, shape: orgScoped('id') }),
  OrganizationCreate: busPattern<OrganizationCreateRequest, StoredOrganizationView>()({
    wire: 'project.organizations.create',
    service,
    readOnly: false,
    shape: { ...orgScoped(), input: CreateOrganizationInput },
  }),
  SecretCreate: busPattern<SecretCreateRequest, SecretView>()({ wire: 'project.secrets.create', service, readOnly: false, shape: orgScoped() }),
  SecretList: busPattern<SecretListRequest, Page<SecretView, SecretListKey>>()({ wire: 'project.secrets.list', service, readOnly: true, shape: orgScoped() }),
  SecretRotate: busPattern<SecretRotateRequest, SecretView>()({ wire: 'project.secrets.rotate', service, readOnly: false, shape: orgScoped('id') }),
  SecretDelete: busPattern<SecretRequest, DeletedView>()({ wire: 'project.secrets.delete', service, readOnly: false, shape: orgScoped('id') }),
  SecretActivity: busPattern<SecretActivityRequest, Page<SecretActivityView, string>>()({ wire: 'project.secrets.activity', service, readOnly: true, shape: orgScoped('id') }),
  /** The gateway asks for the public key it seals new values to (the bus never carries one in clear). */
  SecretIntakeKey: busPattern<NoRequest, SecretIntakeKeyReply>()({ wire: 'project.secrets.intake-key', service, readOnly: false, shape: nothingToCheck }),
  /** benchmark-service asks whether a benchmark's credential references may be used. */
  SecretUsesCheck: busPattern<SecretUsesCheckRequest, SecretUsesCheckReply>()({ wire: 'project.secrets.uses.check', service, readOnly: false, shape: orgScoped() }),
  /** The process making an outbound call asks for one value, sealed to its own key. */
  SecretResolve: busPattern<SecretResolveRequest, SecretResolveReply>()({
    wire: 'project.secrets.resolve',
    service,
    readOnly: false,
    shape: { strings: ['projectId', 'name', 'origin', 'replyKey'] },
  }),
  /** benchmark-service pushes the secret names its benchmarks reference (a secret still named cannot be deleted). */
  SecretReferencesRecord: busPattern<SecretReferencesRecordRequest, FactsRecordedReply>()({
    wire: 'project.secrets.references.record',
    service,
    readOnly: false,
    shape: nothingToCheck,
  }),
} as const;
