import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsString, Matches, MinLength, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { OptionalNotNull } from '../validators';
import { SECRET_ALLOWED_HOSTS_MAX, SECRET_HOST_PATTERN, SECRET_NAME_PATTERN, SECRET_NAME_RULE, SECRET_VALUE_MAX_BYTES } from './secret-rules';

@ValidatorConstraint({ name: 'secretValueSize' })
class SecretValueSize implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && Buffer.byteLength(value, 'utf8') <= SECRET_VALUE_MAX_BYTES;
  }
  defaultMessage(): string {
    return `must be at most ${SECRET_VALUE_MAX_BYTES} bytes`;
  }
}

class AllowedHostsField {
  @ApiPropertyOptional({
    type: [String],
    maxItems: SECRET_ALLOWED_HOSTS_MAX,
    description:
      'Where the value may be sent: `api.example.com` (https on port 443 only), `*.example.com` (any host under it), or with the scheme and port spelled out, `https://api.example.com:8443`; case-insensitive. Plain `http://host:port` entries count only where the operator allows private addresses (local development). Omitted or empty: any https URL the outbound rules allow.',
    example: ['api.openai.com'],
  })
  // Host names are case-insensitive: kept lowercase, as URLs' hostnames are compared.
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v)) : value))
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(SECRET_ALLOWED_HOSTS_MAX)
  @Matches(SECRET_HOST_PATTERN, {
    each: true,
    message: 'each must be a host name (api.example.com or *.example.com), optionally with a scheme and port (https://api.example.com:8443, http://localhost:8080), without a path',
  })
  allowedHosts?: string[];
}

class SecretValueFields extends AllowedHostsField {
  @ApiProperty({ writeOnly: true, minLength: 1, description: `The credential; never returned. At most ${SECRET_VALUE_MAX_BYTES} bytes (UTF-8).` })
  @IsString()
  @MinLength(1, { message: 'must not be empty' })
  @Validate(SecretValueSize)
  value: string;
}

export class CreateSecretInput extends SecretValueFields {
  @ApiProperty({ pattern: SECRET_NAME_PATTERN.source, example: 'OPENAI_API_KEY', description: 'Unique in the organization; what `{ "secret": "<name>" }` names.' })
  @IsString()
  @Matches(SECRET_NAME_PATTERN, { message: `must be ${SECRET_NAME_RULE}` })
  name: string;
}

/** PUT: a new value (rotation), and optionally new allowed hosts (omitted: kept). */
export class RotateSecretInput extends SecretValueFields {}

/**
 * A value as it crosses the bus: sealed by the gateway to project-service's intake key
 * (libs/secret-crypto), so Kafka's log never holds it in clear.
 */
export interface SealedSecretValue {
  senderKey: string;
  salt: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

/** RotateSecretInput as the gateway forwards it: the value sealed. */
export class SealedRotateSecretInput extends AllowedHostsField {
  @IsObject() sealedValue: SealedSecretValue;
}

/** CreateSecretInput as the gateway forwards it: the value sealed. */
export class SealedCreateSecretInput extends SealedRotateSecretInput {
  @IsString()
  @Matches(SECRET_NAME_PATTERN, { message: `must be ${SECRET_NAME_RULE}` })
  name: string;
}
