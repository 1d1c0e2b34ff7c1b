/**
 * Variables that turn on TLS or authentication of a connection. Unset, the connection is
 * as it always was (plaintext Kafka without SASL, Node's public CAs), so manifests set them
 * only where a cluster needs them (deploy-checks does not ask for them everywhere).
 */
export const CONNECTION_SECURITY_VARIABLES = [
  'KAFKA_SSL',
  'KAFKA_SSL_CA_FILE',
  'KAFKA_SSL_CERT_FILE',
  'KAFKA_SSL_KEY_FILE',
  'KAFKA_SSL_REJECT_UNAUTHORIZED',
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  'DATABASE_SSL_CA_FILE',
  'REDIS_TLS_CA_FILE',
] as const;
