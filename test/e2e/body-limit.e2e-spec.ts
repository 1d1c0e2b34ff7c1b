import { aProjectBodyOfSize } from '@cinetrace/testing';
import { expectProblem } from './support/expectations';
import { useStack } from './support/stack-hooks';

describe('MAX_BODY_BYTES', () => {
  const ctx = useStack({ env: { MAX_BODY_BYTES: '1024' } });
  const send = (bytes: number) => ctx.api.post('/api/v1/projects', undefined, { raw: aProjectBodyOfSize(bytes), contentType: 'application/json' });

  it('accepts a body of exactly the limit', async () => {
    expect((await send(1024)).status).toBe(201);
  });

  it('answers 413 payload_too_large one byte over the limit', async () => {
    expectProblem(await send(1025), 413, 'payload_too_large');
  });
});
