import { newId } from './ids';

describe('newId', () => {
  it('makes prefixed ids that sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 500 }, () => newId('prj'));
    expect(ids[0]).toMatch(/^prj_[0-9a-z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
