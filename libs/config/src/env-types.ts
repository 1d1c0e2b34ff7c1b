import { Transform } from 'class-transformer';

/** What class-transformer hands a @Transform: the raw value is whatever the input held. */
type Raw = { value: unknown };

/** Environment values are strings; these turn them into what the schema declares. */
export const ToInt = () => Transform(({ value }: Raw) => (value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value));

export const ToBool = () => Transform(({ value }: Raw) => (value === undefined || value === '' ? undefined : value === 'true' ? true : value === 'false' ? false : value));

export const ToList = () =>
  Transform(({ value }: Raw) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value,
  );

/** An empty value is no value: Kubernetes and compose files often give optional variables as "". */
export const EmptyAsUnset = () => Transform(({ value }: Raw) => (value === '' ? undefined : value));
