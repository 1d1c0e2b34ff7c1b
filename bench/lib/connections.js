'use strict';
// The benches reach Kafka, PostgreSQL and Redis as the apps do: the same KAFKA_*, DATABASE_URL
// (sslmode, DATABASE_SSL_CA_FILE) and REDIS_URL (rediss://, REDIS_TLS_CA_FILE) variables, secrets
// given as <NAME>_FILE too, through the apps' own builders (@cinetrace/config: run `npm run build` first).
const { KafkaEnv, kafkaConnectionFromEnv, postgresConnection, redisConnection, resolveSecretFiles, validateEnv } = require('@cinetrace/config');

/** process.env with `<NAME>_FILE` secrets read. */
const env = () => resolveSecretFiles(process.env);

/** kafkajs' brokers, ssl and sasl from KAFKA_* (KAFKA_BROKERS required). */
function kafkaConnection() {
  const { brokers, ssl, sasl } = kafkaConnectionFromEnv(validateEnv(KafkaEnv, env()));
  return { brokers, ssl, sasl };
}

/** node-postgres' connectionString and ssl for `url`, as sslmode says. */
function pgConnection(url) {
  const { url: connectionString, ssl } = postgresConnection(url, env().DATABASE_SSL_CA_FILE);
  return { connectionString, ssl };
}

/** ioredis/BullMQ connection options for `url` (`{ url, tls? }`). */
function redisOptions(url) {
  const { tls } = redisConnection(url, env().REDIS_TLS_CA_FILE);
  return tls ? { url, tls } : { url };
}

module.exports = { env, kafkaConnection, pgConnection, redisOptions };
