import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';

/**
 * Keeps a free-form JSON field exactly as the client sent it, whatever its keys.
 * class-transformer rebuilds every nested object it meets: it takes an own `constructor`
 * key for the object's class (`{ "constructor": 1 }` made it call `new 1()`, a 500), drops
 * keys named like Object's methods (`toString`, …), and recurses as deep as the value goes.
 * Declaring the field a Boolean makes its own pass one `Boolean(value)`, which reads no key
 * and runs no code of the value; the Transform then puts back the value as it came.
 */
export const KeepJson = (): PropertyDecorator =>
  applyDecorators(
    Type(() => Boolean),
    Transform(({ obj, key }) => (obj as Record<string, unknown>)[key]),
  );
