import { createValidationPipe } from '@cinetrace/validation';
import { applyDecorators, Controller, UseFilters, UsePipes } from '@nestjs/common';
import { BusExceptionFilter } from './bus-exception.filter';

/**
 * Marks a class as a bus adapter: a thin controller whose @MessagePattern handlers
 * validate their payloads (where consumed, not only where produced) and report
 * errors as codes.
 */
export function BusController(): ClassDecorator {
  return applyDecorators(Controller(), UseFilters(new BusExceptionFilter()), UsePipes(createValidationPipe()));
}
