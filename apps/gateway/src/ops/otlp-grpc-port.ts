/**
 * Where OTLP/gRPC listens, for /readyz to say: the port, or null when it is off or could not
 * take its port. The module provides it from the gRPC server (ops/ names no domain).
 */
export abstract class OtlpGrpcPort {
  abstract current(): number | null;
}
