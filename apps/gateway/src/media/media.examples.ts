import type { FetchMediaInput, MediaView } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';

const media = {
  id: EXAMPLE.mediaId,
  projectId: EXAMPLE.projectId,
  sha256: '9f2c4b1e0d8a7f6e5d4c3b2a190817f6e5d4c3b2a19081f7e6d5c4b3a2918070',
  contentType: 'video/mp4',
  bytes: 48211,
  sourceUrl: 'https://cdn.example.com/renders/fox-at-dawn.mp4',
  status: 'ready',
  probe: { durationMs: 2000, width: 320, height: 240, fps: 24, videoCodec: 'h264', audioCodec: null, hasAudio: false, bitRate: 192844 },
  error: null,
  createdAt: EXAMPLE.createdAt,
} satisfies MediaView;

export const MEDIA_EXAMPLES: ExampleTable = {
  createMedia: {
    request: { url: 'https://cdn.example.com/renders/fox-at-dawn.mp4' } satisfies FetchMediaInput,
    response: { ...media, status: 'pending', probe: null } satisfies MediaView,
  },
  listMedia: { response: listPage([media]) },
  getMedia: { response: media },
};
