import { EnvironmentError, validateEnv } from '@cinetrace/config';
import { ProjectServiceEnv } from './project-service.env';

const base = { DATA_DIR: '/tmp/cinetrace-env-spec' };

describe('ProjectServiceEnv: INSTANCE_ADMIN_KEY_IDS', () => {
  it('is empty by default, and when set to nothing', () => {
    expect(validateEnv(ProjectServiceEnv, base).INSTANCE_ADMIN_KEY_IDS).toEqual([]);
    expect(validateEnv(ProjectServiceEnv, { ...base, INSTANCE_ADMIN_KEY_IDS: '' }).INSTANCE_ADMIN_KEY_IDS).toEqual([]);
  });

  it('reads a comma-separated list of key ids', () => {
    const ids = ['key_01jh8z6v9q3m2r7x5c4b1n0k8d', 'key_01jh8z6v9q3m2r7x5c4b1n0k8e'];
    expect(validateEnv(ProjectServiceEnv, { ...base, INSTANCE_ADMIN_KEY_IDS: ` ${ids[0]}, ${ids[1]} ` }).INSTANCE_ADMIN_KEY_IDS).toEqual(ids);
  });

  it('refuses at boot anything that is not a key id (a key pasted by mistake), without echoing it', () => {
    const pasted = 'ct_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';
    let error: unknown;
    try {
      validateEnv(ProjectServiceEnv, { ...base, INSTANCE_ADMIN_KEY_IDS: pasted });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as Error).message).toMatch(/INSTANCE_ADMIN_KEY_IDS: must list API key ids/);
    expect((error as Error).message).not.toContain(pasted);
  });
});
