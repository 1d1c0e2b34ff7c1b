import { emptyEnvironment, environmentProblems } from './env-check';

const given = (...names: string[]) => {
  const environment = emptyEnvironment();
  for (const name of names) environment.variables.set(name, { name, source: 'value' });
  return environment;
};
const expected = (...reads: string[]) => ({ mustSet: reads, mayRead: new Set(reads), mayTakeOpaque: false });

describe('environmentProblems: secrets from files, optional TLS settings', () => {
  it('takes <NAME>_FILE for a secret the app reads', () => {
    expect(environmentProblems('app', given('DATABASE_URL_FILE', 'PORT'), expected('DATABASE_URL', 'PORT'))).toEqual([]);
  });

  it('refuses a secret given both ways, and _FILE for a variable that is no secret', () => {
    expect(environmentProblems('app', given('DATABASE_URL', 'DATABASE_URL_FILE', 'PORT_FILE'), expected('DATABASE_URL', 'PORT'))).toEqual([
      'app: DATABASE_URL and DATABASE_URL_FILE are both set; the app refuses that',
      'app: PORT is read by the app but not set',
      'app: PORT_FILE (from value) is given but the app does not read it',
    ]);
  });

  it('does not ask for TLS and SASL settings a cluster without them leaves unset', () => {
    expect(environmentProblems('app', given('KAFKA_BROKERS'), expected('KAFKA_BROKERS', 'KAFKA_SSL', 'KAFKA_SASL_PASSWORD'))).toEqual([]);
    expect(environmentProblems('app', given('KAFKA_BROKERS', 'KAFKA_SASL_PASSWORD_FILE'), expected('KAFKA_BROKERS', 'KAFKA_SASL_PASSWORD'))).toEqual([]);
  });
});
