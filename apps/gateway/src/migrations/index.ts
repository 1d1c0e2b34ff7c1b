import { CreateGatewayTables1763791300000 } from './1763791300000-CreateGatewayTables';
import { AddIdempotencyETag1764200000000 } from './1764200000000-AddIdempotencyETag';

/** In order of their timestamps. */
export const gatewayMigrations = [CreateGatewayTables1763791300000, AddIdempotencyETag1764200000000];
