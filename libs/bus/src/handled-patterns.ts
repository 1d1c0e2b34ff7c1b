import type { Type } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';

/** The patterns the handlers of these controllers answer, one entry per handler (so a pattern handled twice shows twice). */
export function handledPatterns(controllers: ReadonlyArray<Type<unknown>>): string[] {
  const patterns: string[] = [];
  for (const controller of controllers) {
    for (const key of Object.getOwnPropertyNames(controller.prototype)) {
      const method: unknown = Object.getOwnPropertyDescriptor(controller.prototype, key)?.value;
      if (typeof method !== 'function') continue;
      const handled = Reflect.getMetadata(PATTERN_METADATA, method) as unknown[] | undefined;
      if (handled) patterns.push(...handled.map(String));
    }
  }
  return patterns;
}
