import { BusController } from '@cinetrace/bus';
import { AuthResolveRequest, Patterns } from '@cinetrace/contracts';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AuthService } from './auth.service';

@BusController()
export class AuthBusController {
  constructor(private readonly auth: AuthService) {}

  @MessagePattern(Patterns.AuthResolve)
  resolve(@Payload() request: AuthResolveRequest) {
    return this.auth.resolve(request);
  }
}
