import { baseModelName } from './model-names';

describe('baseModelName', () => {
  it.each([
    ['gpt-4o', 'gpt-4o'],
    ['GPT-4o', 'gpt-4o'],
    ['openai/gpt-4o-2024-08-06', 'gpt-4o'],
    ['gpt-4o-mini-2024-07-18', 'gpt-4o-mini'],
    ['gpt-4.1-nano', 'gpt-4.1-nano'],
    ['o3-mini-2025-01-31', 'o3-mini'],
    ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet'],
    ['claude-3-5-sonnet-latest', 'claude-3-5-sonnet'],
    ['anthropic/claude-3.5-sonnet', 'claude-3-5-sonnet'],
    ['us.anthropic.claude-3-5-sonnet-20241022-v2:0', 'claude-3-5-sonnet'],
    ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5'],
    ['models/gemini-1.5-pro-002', 'gemini-1.5-pro'],
    ['gemini-2.5-flash-preview-05-20', 'gemini-2.5-flash'],
    ['gemini-2.5-flash-lite-preview-09-2025', 'gemini-2.5-flash-lite'],
    ['veo-3.0-generate-001', 'veo-3.0'],
    ['veo-3.1-fast-generate-preview', 'veo-3.1-fast'],
    ['imagen-4.0-ultra-generate-001', 'imagen-4.0-ultra'],
    ['fal-ai/luma-dream-machine/ray-2', 'ray-2'],
    ['kling-v2', 'kling-v2'],
    ['gen4_turbo', 'gen4_turbo'],
  ])('%s is of the family %s', (model, family) => {
    expect(baseModelName(model)).toBe(family);
  });
});
