import { CreateGatewayTables1763791300000 } from './1763791300000-CreateGatewayTables';

/** In order of their timestamps. */
export const gatewayMigrations = [CreateGatewayTables1763791300000];
