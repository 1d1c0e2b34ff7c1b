import { BusController, Handles } from '@cinetrace/bus';
import { AuthResolveRequest, Patterns } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { AuthService } from './auth.service';

@BusController()
export class AuthBusController {
  constructor(private readonly auth: AuthService) {}

  @Handles(Patterns.AuthResolve)
  resolve(@Payload() request: AuthResolveRequest) {
    return this.auth.resolve(request);
  }
}
