import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Env, type EnvClass } from './env-class';
import { EmptyAsUnset, ToBool, ToInt } from './env-types';

export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** The bus block: how every Kafka client of an app reaches the brokers (addresses, TLS, SASL). See kafkaConnectionFromEnv. */
export function withBus<B extends EnvClass>(Base: B) {
  class BusEnv extends Base {
    /** Comma-separated host:port list; required in the distributed mode. */
    @IsOptional() @IsString() KAFKA_BROKERS?: string;

    /**
     * Longest a consumer's fetch waits for records. Kafka answers a fetch as soon as records
     * arrive, so a long wait costs no latency there and saves idle fetches (Kafka's own
     * default is 500 ms).
     */
    @ToInt() @IsInt() @Min(1) @Max(5000) KAFKA_MAX_WAIT_MS = 500;

    /** TLS to the brokers (an SSL or SASL_SSL listener). */
    @ToBool() @IsBoolean() KAFKA_SSL = false;

    /** PEM file of the CA(s) the brokers' certificates are checked against; default Node's public CAs. */
    @EmptyAsUnset() @IsOptional() @IsString() KAFKA_SSL_CA_FILE?: string;

    /** PEM certificate of this client, for brokers that ask for one (mutual TLS); with KAFKA_SSL_KEY_FILE. */
    @EmptyAsUnset() @IsOptional() @IsString() KAFKA_SSL_CERT_FILE?: string;
    /** PEM key of KAFKA_SSL_CERT_FILE's certificate. */
    @EmptyAsUnset() @IsOptional() @IsString() KAFKA_SSL_KEY_FILE?: string;

    /** `false` accepts any broker certificate: only for a test cluster with self-signed certificates. */
    @ToBool() @IsBoolean() KAFKA_SSL_REJECT_UNAUTHORIZED = true;

    /** SASL authentication; unset: none. */
    @EmptyAsUnset() @IsOptional() @IsIn(KAFKA_SASL_MECHANISMS) KAFKA_SASL_MECHANISM?: KafkaSaslMechanism;
    /** The SASL user; required with KAFKA_SASL_MECHANISM. */
    @EmptyAsUnset() @IsOptional() @IsString() KAFKA_SASL_USERNAME?: string;
    /** The SASL user's password; required with KAFKA_SASL_MECHANISM. */
    @EmptyAsUnset() @IsOptional() @IsString() KAFKA_SASL_PASSWORD?: string;
  }
  return BusEnv;
}

/** A service answering requests on the bus: how many it handles at once. See TopicCreatingServerKafka (@cinetrace/bus). */
export function withRequestServer<B extends EnvClass>(Base: B) {
  class RequestServerEnv extends Base {
    /**
     * Requests one service process handles at once in the distributed mode; at the bound its
     * request consumer pauses (the others wait in Kafka) until one ends.
     */
    @ToInt() @IsInt() @Min(1) @Max(10000) BUS_MAX_IN_FLIGHT = 128;
  }
  return RequestServerEnv;
}

/** The bus variables alone, for a client that only connects (a test, a tool). */
export class KafkaEnv extends withBus(Env) {}
