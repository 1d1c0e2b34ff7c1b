/** The kinds of prompt the service keeps (API.md, "Prompts"). Stored as is: never rename one. */
export const PROMPT_TYPES = ['text-to-video', 'image-to-video', 'video-to-video', 'text-to-image', 'image-to-image', 'text-to-audio', 'text-to-text'] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];

export const isPromptType = (value: unknown): value is PromptType => typeof value === 'string' && (PROMPT_TYPES as readonly string[]).includes(value);

/** 1..100 of a-z, 0-9, `-`, `_`, `.`, starting and ending with a letter or digit. */
export const PROMPT_IDENTIFIER_PATTERN = /^(?=.{1,100}$)[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/;
export const PROMPT_IDENTIFIER_MAX = 100;

export const PROMPT_LABEL_PATTERN = /^[a-z0-9_.-]{1,50}$/;
export const PROMPT_LABELS_MAX = 20;
export const PROMPT_NAME_MAX = 200;
export const PROMPT_CONTENT_MAX = 100_000;
export const PROMPT_METADATA_MAX_BYTES = 64 * 1024;

/** The fields a PUT may change; every other field of a prompt is fixed at create. */
export const PROMPT_MUTABLE_FIELDS = ['name', 'content', 'labels', 'metadata'] as const;
export type PromptMutableField = (typeof PROMPT_MUTABLE_FIELDS)[number];

/** Release names are written like labels (`production`, `staging`). */
export const PROMPT_RELEASE_NAME_PATTERN = PROMPT_LABEL_PATTERN;
/** The implicit release: always the newest version. It can be read, never set or removed. */
export const LATEST_RELEASE = 'latest';
/** Releases of one prompt: few by nature, so their list is one page. */
export const PROMPT_RELEASES_MAX = 50;
/** Scorers a gate may name (a benchmark has at most 20). */
export const GATE_THRESHOLDS_MAX = 20;
/** Values of one render: names of at most 100 characters, values of at most 100 000 (a prompt's content). */
export const RENDER_VARIABLES_MAX = 200;
