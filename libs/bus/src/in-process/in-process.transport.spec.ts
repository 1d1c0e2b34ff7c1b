import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IsString } from 'class-validator';
import { BusClient } from '../bus.client';
import { BusController } from '../bus-controller.decorator';
import { InProcessBroker } from './in-process.broker';
import { InProcessClient } from './in-process.client';
import { InProcessServer } from './in-process.server';

class Greeting {
  @IsString() name: string;
}

@BusController()
class EchoController {
  @MessagePattern('test.echo')
  echo(@Payload() payload: { at: Date; key: string }) {
    return { received: payload, atIsDate: payload.at instanceof Date };
  }

  @MessagePattern('test.greet')
  greet(@Payload() greeting: Greeting) {
    return `hello ${greeting.name}`;
  }

  @MessagePattern('test.missing')
  missing(): never {
    throw DomainError.notFound('No such thing');
  }

  @MessagePattern('test.crash')
  crash(): never {
    throw new Error('relation "secrets" does not exist');
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('in-process bus', () => {
  const broker = new InProcessBroker();
  let service: INestMicroservice;
  let bus: BusClient;

  beforeAll(async () => {
    service = await NestFactory.createMicroservice(EchoModule, { strategy: new InProcessServer(broker), logger: false });
    await service.listen();
    bus = new BusClient(new InProcessClient(broker), 1000);
  });

  afterAll(() => service.close());

  it('delivers payloads through a JSON round-trip, as Kafka would, and the reply as the handler built it', async () => {
    const sent = { at: new Date(0), key: 'k' };
    const reply = await bus.request<{ received: unknown; atIsDate: boolean }>('test.echo', sent);
    expect(reply).toEqual({ received: { at: '1970-01-01T00:00:00.000Z', key: 'k' }, atIsDate: false });
    expect(reply.received).not.toBe(sent);
  });

  it('validates payloads where they are consumed', async () => {
    await expect(bus.request('test.greet', { name: 3 })).rejects.toMatchObject({
      code: ErrorCode.ValidationFailed,
      errors: [{ path: 'name', message: 'must be a string' }],
    });
    await expect(bus.request('test.greet', { name: 'Ada' })).resolves.toBe('hello Ada');
  });

  it('carries domain errors as codes and hides unexpected ones behind internal', async () => {
    await expect(bus.request('test.missing', {})).rejects.toMatchObject({ code: 'not_found', detail: 'No such thing' });
    const crash = bus.request('test.crash', {});
    await expect(crash).rejects.toMatchObject({ code: 'internal', detail: 'Internal error' });
  });

  it('answers unavailable for a pattern no service handles', async () => {
    await expect(bus.request('test.nobody', {})).rejects.toMatchObject({ code: 'unavailable', retryAfter: 2 });
  });
});
