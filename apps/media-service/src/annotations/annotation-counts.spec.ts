import { expect } from '@jest/globals';
import { ANNOTATION_COUNT_MEDIA_MAX, ErrorCode, type ProjectContext } from '@cinetrace/contracts';
import { aProjectContext, domainErrorOf, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { mediaServiceStore } from '../media-service.module';
import { insertMediaAnnotation } from '../store/media-annotations.queries';
import { AnnotationsService } from './annotations.service';

const media = (n: number) => `med_${String(n).padStart(26, '0')}`;

// A run summary's label counts on both of media-service's stores: only the caller's project's annotations count.
describe.each(TEST_STORES)('AnnotationsService.countLabels on %s', (kind) => {
  let store: TestStore;
  let annotations: AnnotationsService;
  let projects = 0;
  let owner: ProjectContext;
  let other: ProjectContext;
  let rows = 0;

  const annotate = (ctx: ProjectContext, mediaId: string, label: string) =>
    insertMediaAnnotation(store.dataSource.manager, {
      id: `man_${String(++rows).padStart(26, '0')}`,
      projectId: ctx.projectId,
      mediaId,
      startMs: 0,
      endMs: 100,
      label,
      score: null,
      comment: null,
      createdAt: Date.now(),
    });

  beforeAll(async () => {
    store = await openTestStore(kind, mediaServiceStore);
    annotations = new AnnotationsService(store.dataSource);
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(() => {
    owner = aProjectContext(`prj_${++projects}`);
    other = aProjectContext(`prj_${++projects}`);
  });

  it("counts the labels on the caller's media among those asked about, and nothing of another project's", async () => {
    await annotate(owner, media(1), 'flicker');
    await annotate(owner, media(1), 'flicker');
    await annotate(owner, media(2), 'blur');
    await annotate(owner, media(3), 'not asked about');
    await annotate(other, media(4), 'theirs');

    expect(await annotations.countLabels(owner, [media(1), media(2), media(4), media(1)])).toEqual({ total: 3, labels: { flicker: 2, blur: 1 }, labelsOmitted: 0 });
    // The other project naming the owner's media learns nothing of their annotations.
    expect(await annotations.countLabels(other, [media(1), media(2), media(4)])).toEqual({ total: 1, labels: { theirs: 1 }, labelsOmitted: 0 });
    expect(await annotations.countLabels(other, [media(1)])).toEqual({ total: 0, labels: {}, labelsOmitted: 0 });
  });

  it('counts over as many ids as the limit, in one statement', async () => {
    await annotate(owner, media(5), 'flicker');
    await annotate(owner, media(ANNOTATION_COUNT_MEDIA_MAX - 1), 'flicker');
    const ids = Array.from({ length: ANNOTATION_COUNT_MEDIA_MAX }, (_, i) => media(i));
    expect(await annotations.countLabels(owner, ids)).toEqual({ total: 2, labels: { flicker: 2 }, labelsOmitted: 0 });
  });

  it('refuses a request that is not a list of at most the limit of ids', async () => {
    for (const mediaIds of [undefined, 'med_1', [1, 2], Array.from({ length: ANNOTATION_COUNT_MEDIA_MAX + 1 }, (_, i) => media(i))]) {
      const error = await domainErrorOf(annotations.countLabels(owner, mediaIds));
      expect(error).toMatchObject({ code: ErrorCode.ValidationFailed, errors: [{ path: 'mediaIds' }] });
    }
  });
});
