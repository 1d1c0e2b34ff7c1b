export type { components, operations, paths } from './schema.js';
export { createApiClient } from './client.js';
export type { ApiClient, ApiClientOptions } from './client.js';
