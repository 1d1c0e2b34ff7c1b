import { Transform } from 'class-transformer';

/** Environment values are strings; these turn them into what the schema declares. */
export const ToInt = () =>
  Transform(({ value }) => (value === undefined || value === '' ? undefined : /^-?\d+$/.test(value) ? Number(value) : value));

export const ToBool = () =>
  Transform(({ value }) => (value === undefined || value === '' ? undefined : value === 'true' ? true : value === 'false' ? false : value));

export const ToList = () =>
  Transform(({ value }) =>
    typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value,
  );

/** An empty value is no value: Kubernetes and compose files often give optional variables as "". */
export const EmptyAsUnset = () => Transform(({ value }) => (value === '' ? undefined : value));
