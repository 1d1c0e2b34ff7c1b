import { Transform } from 'class-transformer';

/**
 * Keeps a free-form JSON field exactly as the client sent it. class-transformer would
 * rebuild it and silently drop keys named like Object's own methods (`constructor`,
 * `toString`, …) at any depth.
 */
export const KeepJson = (): PropertyDecorator => Transform(({ obj, key }) => (obj as Record<string, unknown>)[key]);
