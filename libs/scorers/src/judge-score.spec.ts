import { parseJudgeScore } from './judge-score';

describe('parseJudgeScore', () => {
  it('reads the JSON the judge was asked for, with its reason', () => {
    expect(parseJudgeScore('{"score": 0.8, "reason": "vivid but too long"}')).toEqual({ score: 0.8, reason: 'vivid but too long' });
  });

  it('reads JSON inside a fence or surrounded by prose', () => {
    expect(parseJudgeScore('Here you go:\n```json\n{ "score": 0.65, "reason": "ok" }\n```')).toEqual({ score: 0.65, reason: 'ok' });
    expect(parseJudgeScore('My verdict is {"Score": 1} as requested.')).toEqual({ score: 1 });
    expect(parseJudgeScore('{"score": "7/10", "reason": "fine"}')).toEqual({ score: 0.7, reason: 'fine' });
  });

  it.each([
    ['Score: 0.8', 0.8],
    ['Score: 0.7/1', 0.7],
    ['**Score**: 7/10\nThe video matches the prompt.', 0.7],
    ['score = 9 out of 10', 0.9],
    ['7/10', 0.7],
    ['70%', 0.7],
    ['0.3', 0.3],
    [' 1 ', 1],
    ['0', 0],
    ["I'd give it 80% since the lighting is off.", 0.8],
  ])('reads %j as %p', (content, score) => {
    expect(parseJudgeScore(content).score).toBeCloseTo(score, 10);
  });

  it.each([
    ['garbage', /holds no score: "garbage"/],
    ['', /holds no score/],
    ['1.5', /1\.5 is outside 0\.\.1/],
    ['Score: 8', /8 is outside 0\.\.1/],
    ['{"score": 1.5}', /1\.5 is outside 0\.\.1/],
    ['{"score": -0.1}', /outside/],
    ['{"score": "high"}', /not a number/],
    ['12/10', /12\/10 is outside 0\.\.10/],
    ['150%', /outside 0\.\.100%/],
    ['It is 3/10 or maybe 4/10', /holds no score/],
  ])('refuses %j', (content, message) => {
    expect(() => parseJudgeScore(content)).toThrow(message);
  });
});
