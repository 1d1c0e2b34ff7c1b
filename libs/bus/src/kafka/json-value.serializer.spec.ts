import { JsonText } from '../json-text';
import { JsonValueSerializer } from './json-value.serializer';

describe('JsonValueSerializer', () => {
  it('keeps objects that have a key property whole', () => {
    const project = { id: 'prj_1', key: 'video-gen-prod', name: 'Video' };
    const message = new JsonValueSerializer().serialize(project);
    expect(JSON.parse(String(message.value))).toEqual(project);
    expect(message.headers).toEqual({});
  });

  it('encodes strings and nothing as JSON too', () => {
    expect(new JsonValueSerializer().serialize('abc').value).toBe('"abc"');
    expect(new JsonValueSerializer().serialize(undefined).value).toBe('null');
  });

  it('sends a reply already written as JSON text as it is, not as a JSON string of it', () => {
    const text = '{"id":"t1","spans":[]}';
    expect(new JsonValueSerializer().serialize(new JsonText(text)).value).toBe(text);
  });
});
