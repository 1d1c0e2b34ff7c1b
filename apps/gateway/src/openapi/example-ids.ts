/** Ids and times the example tables share, so that one example's references name another's resource. */
export const EXAMPLE = {
  orgId: 'org_01jh8z6v9q3m2r7x5c4b1n0k8d',
  projectId: 'prj_01jh8z6v9q3m2r7x5c4b1n0k8d',
  projectKey: 'video-gen-prod',
  apiKeyId: 'key_01jh8z6v9q3m2r7x5c4b1n0k8d',
  secretId: 'sec_01jh8z6v9q3m2r7x5c4b1n0k8d',
  promptId: 'prm_01jh8z6v9q3m2r7x5c4b1n0k8d',
  traceId: 'tr_intro_001',
  datasetId: 'ds_01jh8z6v9q3m2r7x5c4b1n0k8d',
  datasetItemId: 'dsi_01jh8z6v9q3m2r7x5c4b1n0k8d',
  benchmarkId: 'bm_01jh8z6v9q3m2r7x5c4b1n0k8d',
  runId: 'run_01jh8z6v9q3m2r7x5c4b1n0k8d',
  taskId: 'task_01jh8z6v9q3m2r7x5c4b1n0k8d',
  mediaId: 'med_01jh8z6v9q3m2r7x5c4b1n0k8d',
  createdAt: '2025-01-15T10:00:00.000Z',
  updatedAt: '2025-01-15T10:05:00.000Z',
  /** An opaque page cursor: pass it back as `cursor`. */
  cursor: 'WzE3MzY5MzUyMDAwMDAsInRyX2ludHJvXzAwMiJd.pFpiGymG-zS51X1Xpqt2wr0ItBx_OuEy',
} as const;
